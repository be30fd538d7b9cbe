import ReflexSystem
import CLinux
import CV4L2
import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// The simulated sensor as a camera device: RGGB 12-bit frames of `SimulatedScene` at 30 fps
/// (or a slower rate asked for) from a timer, a gain control (16 = 1×) and an exposure control, which take effect two
/// frames after they are set, like a real sensor's, and a focus motor (0…1023, larger
/// closer as V4L2 has it) whose position two frames on decides which of the scene's two
/// distances is sharp (with FOCUS_AUTO on, the camera's own autofocus holds the frame's
/// centre, the far subject, sharp, as a webcam's does), and a zoom (100…400 = 1…4×) that magnifies
/// the scene about its centre two frames after it is set, as the exposure does (a real zoom
/// lens may take longer: the board's control-delay-frames says how long).
///
/// Given footage (`VideoFootage`, `--sensor file:PATH`), its picture is a video file's instead
/// of the scene, at the video's size and rate, with the same controls.
///
/// Its exposure control comes in the two kinds real cameras have (`Style`): a UVC-style
/// absolute exposure in 100 µs, or a CSI sensor's exposure in lines with the PIXEL_RATE and
/// HBLANK controls that give a line's time, and VBLANK, which lengthens the frame (and so the
/// longest exposure) as a real CSI sensor's does: the frames come further apart. A new VBLANK
/// takes effect with the exposure set beside it, two frames later (as on an IMX219), and the
/// frame it starts is the first of the new length.
public final class SimulatedCamera: CameraDevice {
    public enum Style: Sendable, Equatable {
        /// V4L2_CID_EXPOSURE_ABSOLUTE, 1…333 × 100 µs.
        case absoluteExposure
        /// V4L2_CID_EXPOSURE, 4 lines to the frame's length less 4 (996 at 30 fps), lines of
        /// (1280 + 1720) / 90 MHz = 33.3 µs; V4L2_CID_VBLANK 280 (30 fps) … 64815 (2.2 s).
        case exposureInLines
    }

    /// What makes its frames come: a timer at the mode's rate, or a test's steps.
    public enum Pace: Sendable, Equatable {
        case realTime
        case stepped(any FrameStepping)

        public static func == (a: Pace, b: Pace) -> Bool {
            switch (a, b) {
            case (.realTime, .realTime): true
            case (.stepped(let one), .stepped(let other)): one === other
            default: false
            }
        }
    }
    /// How its frames are made: each drawn anew, or a short reel drawn once and copied
    /// (`SimulatedFrameReel`), so that what a benchmark measures is the camera and not the
    /// simulator (a real sensor's frames cost the CPUs nothing).
    public enum Rendering: Sendable, Equatable {
        case everyFrame
        case reel(frames: Int)

        /// A reel long enough for a merge's or a burst's frames each to have their own noise.
        public static let reel = Rendering.reel(frames: 8)
    }

    static let pixelRate: Int64 = 90_000_000
    static let horizontalBlanking: Int32 = 1720
    static var lineTime: Double { Double(Int64(width) + Int64(horizontalBlanking)) / Double(pixelRate) }
    /// The frame is `height + VBLANK` lines; 280 makes it 1000 lines, 30 fps. Like IMX219's
    /// driver: the exposure reaches 4 lines short of the frame, VBLANK up to 0xFFFF − height.
    static let modeVerticalBlanking: Int32 = 280
    static let longestVerticalBlanking: Int32 = 0xFFFF - Int32(height)
    static let exposureMargin: Int32 = 4

    public static let width = 1280
    public static let height = 720
    /// Its second mode: the frame binned 2×2 (a quarter of the pixels), as real sensors offer.
    public static let binnedWidth = 640
    public static let binnedHeight = 360
    public static let framesPerSecond = 30
    /// Its third mode, offered by the absolute-exposure twin: 12 MP at 10 fps, as an IMX477
    /// (the Raspberry Pi HQ camera) streams its full frame — a real camera's RAW size, for
    /// bursts at that size. (The CSI twin's line timing is modelled on the 1280-wide mode.)
    public static let largeWidth = 4056
    public static let largeHeight = 3040
    public static let largeFramesPerSecond = 10
    public static let gainUnity: Int32 = 16
    static let fourCC: UInt32 = 0x3231_4752  // "RG12"

    public let style: Style
    public let path: String
    /// Real footage in place of the scene (the absolute-exposure style's controls).
    public let footage: VideoFootage?
    public private(set) var descriptor: Int32 = -1
    public var scene = SimulatedScene()
    /// The mode streaming: the full frame or the binned one.
    private var layout = RawLayout(width: width, height: height, format: SimulatedScene.format)
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    /// The CSI twin's embedded data, a buffer beside each frame's.
    private var embeddedData: SimulatedEmbeddedData?
    private var next = 0
    private var sequence: UInt32 = 0
    private var gain: Int32 = gainUnity
    /// In the style's unit: 100 µs, or lines.
    private var exposure: Int32 = 100
    /// The VBLANK control's value, and the one the frames are timed by: a new value reaches
    /// the frames through the same two-frame pipeline as the exposure.
    private(set) var verticalBlanking = SimulatedCamera.modeVerticalBlanking
    private var activeVerticalBlanking = SimulatedCamera.modeVerticalBlanking
    private var verticalBlankingPipeline = [Int32](repeating: SimulatedCamera.modeVerticalBlanking,
                                                   count: SimulatedExposureLatency.framesOfDelay)
    private var focus: Int32 = 0
    private var autofocus: Int32 = 1
    private var zoom: Int32 = 100
    /// The zoom control's last values: a frame shows the one set `framesOfDelay` frames
    /// before, as its exposure does.
    private var zoomPipeline = [Int32](repeating: 100, count: SimulatedExposureLatency.framesOfDelay)
    /// The lens's position (thousandths, 0 closest) as the motor reaches it, frames behind.
    private var focusPipeline = [Int32](repeating: 1000, count: SimulatedExposureLatency.framesOfDelay)
    private var latency = SimulatedExposureLatency(initial: ExposureSetting(exposure: 0.01, analogGain: 1))
    public let pace: Pace
    /// The frames drawn once and copied (`Rendering.reel`); nil: each frame drawn.
    private let reel: SimulatedFrameReel?
    /// Damage done to some frames on purpose (tests of bad hardware); nil: none.
    public let faults: (any FrameFaults)?
    /// The lens's magnification against a board's wide (its zoom control magnifies on top).
    public let magnification: Double
    private var now: Double {
        if case .stepped(let stepper) = pace { return stepper.clock.now }
        return monotonicSeconds()
    }
    /// Frames this camera drew (a reel's: the first time each was shown); for its tests.
    private(set) var framesDrawn = 0
    private let startTime: Double

    public init(style: Style = .absoluteExposure, pace: Pace = .realTime, faults: (any FrameFaults)? = nil, magnification: Double = 1,
                rendering: Rendering = .everyFrame) {
        self.style = style
        self.pace = pace
        if case .reel(let frames) = rendering { reel = SimulatedFrameReel(length: frames) } else { reel = nil }
        self.faults = faults
        self.magnification = magnification
        path = "simulated"
        footage = nil
        if case .stepped(let stepper) = pace { startTime = stepper.clock.now } else { startTime = monotonicSeconds() }
        if style == .exposureInLines { exposure = 300 }
    }

    /// The sensor playing `footage`.
    public init(footage: VideoFootage, pace: Pace = .realTime) {
        style = .absoluteExposure
        self.pace = pace
        reel = nil
        faults = nil
        path = footage.path
        magnification = 1
        self.footage = footage
        if case .stepped(let stepper) = pace { startTime = stepper.clock.now } else { startTime = monotonicSeconds() }
        layout = RawLayout(width: footage.width, height: footage.height, format: SimulatedScene.format)
    }

    /// The exposure and gain controls' values.
    private var requestedExposure: ExposureSetting {
        ExposureSetting(exposure: exposureSeconds, analogGain: Double(gain) / Double(SimulatedCamera.gainUnity))
    }

    /// The exposure control's value in seconds.
    private var exposureSeconds: Double {
        style == .absoluteExposure ? Double(exposure) * 0.0001 : Double(exposure) * SimulatedCamera.lineTime
    }

    deinit { stop() }

    /// Its one format, in the mode nearest the size asked for (as a driver adjusts it): the
    /// binned mode up to twice its area, the 12 MP mode (absolute-exposure twin) where the
    /// size asked for is nearer it than the full 1280x720, in width + height.
    public func setFormat(fourCC: UInt32, width: Int, height: Int) throws(CameraError) -> v4l2_pix_format {
        frameDivider = 1
        if let footage {
            layout = RawLayout(width: footage.width, height: footage.height, format: SimulatedScene.format)
            return pixelFormat
        }
        let binned = width * height <= SimulatedCamera.binnedWidth * SimulatedCamera.binnedHeight * 2
        func distance(_ w: Int, _ h: Int) -> Int { abs(width - w) + abs(height - h) }
        let large = style == .absoluteExposure
            && distance(SimulatedCamera.largeWidth, SimulatedCamera.largeHeight) < distance(SimulatedCamera.width, SimulatedCamera.height)
        layout = large ? RawLayout(width: SimulatedCamera.largeWidth, height: SimulatedCamera.largeHeight, format: SimulatedScene.format)
            : binned ? RawLayout(width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight, format: SimulatedScene.format)
            : RawLayout(width: SimulatedCamera.width, height: SimulatedCamera.height, format: SimulatedScene.format)
        return pixelFormat
    }

    private var pixelFormat: v4l2_pix_format {
        var format = v4l2_pix_format()
        format.width = UInt32(layout.width)
        format.height = UInt32(layout.height)
        format.pixelformat = SimulatedCamera.fourCC
        format.bytesperline = UInt32(layout.bytesPerLine)
        format.sizeimage = UInt32(layout.byteCount)
        return format
    }

    /// The UVC-style twin offers its mode's rate and that rate divided by a whole number (a
    /// UVC camera's discrete frame intervals: 30, 15, 10, 7.5, 6, 5 fps…): the fastest not
    /// above the rate asked for. The CSI twin's rate is its VBLANK's, and footage plays at its
    /// own; both say so. (A board slower than its sensor, as the QEMU one asks 5 fps, then
    /// gets frames it can take, from the simulated sensor as from vivid.)
    public func setFrameRate(_ framesPerSecond: Int) throws(CameraError) -> Double? {
        if style == .absoluteExposure, footage == nil {
            frameDivider = framesPerSecond > 0 ? max(1, (modeFramesPerSecond + framesPerSecond - 1) / framesPerSecond) : 1
        }
        return 1e9 / Double(frameNanoseconds)
    }

    /// The mode's frame time multiplied by this (`setFrameRate`); a new format starts at 1.
    private var frameDivider = 1

    private var modeFramesPerSecond: Int {
        layout.width == SimulatedCamera.largeWidth ? SimulatedCamera.largeFramesPerSecond : SimulatedCamera.framesPerSecond
    }

    /// A frame's time: 1/30 s (1/10 s in the 12 MP mode), or with exposure in lines, the
    /// frame's length in lines.
    var frameSeconds: Double { Double(frameNanoseconds) / 1e9 }
    private var frameNanoseconds: Int64 {
        footage.map { Int64((1e9 / $0.framesPerSecond).rounded()) } ?? (style == .absoluteExposure
            ? 1_000_000_000 * Int64(frameDivider) / Int64(modeFramesPerSecond)
            : Int64((Double(SimulatedCamera.height + Int(activeVerticalBlanking)) * SimulatedCamera.lineTime * 1e9).rounded()))
    }

    public func start(bufferCount: Int) throws(CameraError) {
        stop()
        // Controls written before streaming apply from the first frame (as a sensor's
        // registers written before STREAMON do).
        activeVerticalBlanking = verticalBlanking
        latency = SimulatedExposureLatency(initial: requestedExposure)
        for i in verticalBlankingPipeline.indices { verticalBlankingPipeline[i] = verticalBlanking }
        buffers = (0..<max(bufferCount, 2)).map { _ in .allocate(byteCount: layout.byteCount, alignment: 64) }
        embeddedData = style == .exposureInLines && footage == nil
            ? SimulatedEmbeddedData(bufferCount: buffers.count, width: layout.width) : nil
        // Each stream counts its frames afresh, as V4L2's do.
        (next, sequence) = (0, 0)
        if case .stepped(let stepper) = pace {
            stepper.frameSeconds = frameSeconds
            descriptor = stepper.descriptor
            return
        }
        descriptor = reflex_periodic_timer(frameNanoseconds)
        guard descriptor >= 0 else { throw CameraError.failed("simulated sensor timer", code: errno) }
    }

    public func dequeue() throws(CameraError) -> CapturedFrame? {
        var expirations: UInt64 = 0
        guard read(descriptor, &expirations, 8) == 8 else { return nil }
        let frames = FootagePacing.framesMade(expirations: expirations, playingFootage: footage != nil)
        sequence &+= UInt32(truncatingIfNeeded: frames)
        let taken = advanceControls(byFrames: frames)
        let buffer = buffers[next]
        let now = self.now
        let making = threadCPUSeconds()
        defer { SensorTwinCost.makingNanoseconds.add(Int((threadCPUSeconds() - making) * 1e9), ordering: .relaxed) }
        let drawnBefore = framesDrawn
        if let reel {
            reel.fill(buffer, sequence: sequence, look: SimulatedFrameReel.Look(scene: scene, setting: taken, layout: layout)) { frame, slot in
                scene.render(into: frame.baseAddress!, layout: layout, time: Double(slot) * frameSeconds, setting: taken,
                             frameNumber: UInt64(slot))
                framesDrawn += 1
            }
        } else if let footage {
            if case .realTime = pace { footagePacing.yieldLikeHardware() }
            do {
                try footage.advance(by: Int(frames))
            } catch {
                throw CameraError.failed("video file sensor: \(error)", code: EIO)
            }
            footage.render(into: buffer.baseAddress!, layout: layout, setting: taken, zoom: scene.zoom,
                           frameNumber: UInt64(sequence), noise: scene.noise)
            framesDrawn += 1
        } else {
            scene.render(into: buffer.baseAddress!, layout: layout, time: now - startTime, setting: taken,
                         frameNumber: UInt64(sequence))
            framesDrawn += 1
        }
        if framesDrawn > drawnBefore {
            SensorTwinCost.framesDrawn.add(framesDrawn - drawnBefore, ordering: .relaxed)
        } else {
            SensorTwinCost.framesCopied.add(1, ordering: .relaxed)
        }
        let damage = faults?.damage(toFrame: sequence)
        if damage == .garbage { fillWithGarbage(buffer) }
        let bytes = damage == .cutShort ? UnsafeRawBufferPointer(rebasing: buffer[0..<(buffer.count / 2)])
                                        : UnsafeRawBufferPointer(buffer)
        var frame = CapturedFrame(bufferIndex: next, bytes: bytes, sequence: sequence,
                                  timestampNanoseconds: Int64(now * 1e9), timestampMark: .endOfFrame,
                                  corrupted: damage == .flaggedError)
        // The CSI twin says what the frame had in its embedded data, as a real CSI sensor
        // does; the UVC-style twin, which has no such data, says it directly.
        if let embeddedData {
            frame.embeddedData = embeddedData.write(
                index: next, exposureLines: Int((taken.exposure / SimulatedCamera.lineTime).rounded()),
                gainCode: Int((taken.analogGain * Double(SimulatedCamera.gainUnity)).rounded()),
                frameLengthLines: SimulatedCamera.height + Int(activeVerticalBlanking))
        } else {
            frame.sensorExposure = taken
        }
        next = (next + 1) % buffers.count
        return frame
    }

    /// How footage is paced on this camera's reading thread (`FootagePacing`).
    private var footagePacing = FootagePacing()

    /// Noise where the picture was (the same each time: a xorshift from the frame's number).
    private func fillWithGarbage(_ buffer: UnsafeMutableRawBufferPointer) {
        var state = UInt64(sequence) &* 0x9E37_79B9_7F4A_7C15 | 1
        for index in 0..<(buffer.count / 8) {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            buffer.storeBytes(of: state, toByteOffset: index * 8, as: UInt64.self)
        }
    }

    /// Moves the controls' pipelines on by `frames` sensor frames (the timer's ticks since the
    /// last frame taken) and returns the exposure the newest of them was taken with. The
    /// delay is in the sensor's frames, as the sequence numbers count them: frames this side
    /// was too slow to take move the pipelines on too.
    func advanceControls(byFrames frames: UInt64) -> ExposureSetting {
        let requested = requestedExposure
        var taken = latency.active
        let blanking = activeVerticalBlanking
        // (Past the pipelines' length, more frames change nothing.)
        for _ in 0..<Int(min(frames, UInt64(SimulatedExposureLatency.framesOfDelay + 1))) {
            taken = latency.nextFrame(requested: requested)
            scene.zoom = Double(SimulatedCamera.pass(zoom, through: &zoomPipeline)) / 100 * magnification
            let lens = autofocus != 0 ? SimulatedScene.farSubject : 1 - Double(focus) / 1023
            scene.lensFocus = Double(SimulatedCamera.pass(Int32((lens * 1000).rounded()), through: &focusPipeline)) / 1000
            activeVerticalBlanking = SimulatedCamera.pass(verticalBlanking, through: &verticalBlankingPipeline)
        }
        // The timer is re-armed at a frame's start (its ticks just read), so the frame now
        // beginning is the first of the new length and no tick is lost.
        if activeVerticalBlanking != blanking && descriptor >= 0 {
            if case .stepped(let stepper) = pace { stepper.frameSeconds = frameSeconds } else {
                _ = reflex_set_timer_interval(descriptor, frameNanoseconds)
            }
        }
        return taken
    }

    /// Puts `value` into a control's pipeline and returns the value leaving it. (Moved in
    /// place: an append would allocate a frame.)
    private static func pass(_ value: Int32, through pipeline: inout [Int32]) -> Int32 {
        let leaving = pipeline[0]
        for i in 0..<pipeline.count - 1 { pipeline[i] = pipeline[i + 1] }
        pipeline[pipeline.count - 1] = value
        return leaving
    }

    public func requeue(_ frame: CapturedFrame) throws(CameraError) {}

    public func stop() {
        // (A stepper's descriptor is the stepper's: it outlives the stream.)
        if descriptor >= 0, pace == .realTime { close(descriptor) }
        descriptor = -1
        for buffer in buffers { buffer.deallocate() }
        buffers.removeAll()
        embeddedData = nil
    }

    public func control(_ id: UInt32) throws(CameraError) -> Int32 {
        switch (id, style) {
        case (REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE, .absoluteExposure), (REFLEX_V4L2_CID_EXPOSURE, .exposureInLines): return exposure
        case (REFLEX_V4L2_CID_HBLANK, .exposureInLines): return SimulatedCamera.horizontalBlanking
        case (REFLEX_V4L2_CID_VBLANK, .exposureInLines): return verticalBlanking
        default: break
        }
        switch id {
        case REFLEX_V4L2_CID_GAIN: return gain
        case REFLEX_V4L2_CID_FOCUS_ABSOLUTE: return focus
        case REFLEX_V4L2_CID_FOCUS_AUTO: return autofocus
        case REFLEX_V4L2_CID_ZOOM_ABSOLUTE: return zoom
        default: throw CameraError.failed("simulated sensor: control \(id)", code: EINVAL)
        }
    }

    public func setControl(_ id: UInt32, to value: Int32) throws(CameraError) {
        switch id {
        case REFLEX_V4L2_CID_GAIN: gain = min(max(value, 16), 255)
        case REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE where style == .absoluteExposure: exposure = min(max(value, 1), 333)
        case REFLEX_V4L2_CID_EXPOSURE where style == .exposureInLines:
            exposure = min(max(value, 4), Int32(SimulatedCamera.height) + verticalBlanking - SimulatedCamera.exposureMargin)
        case REFLEX_V4L2_CID_VBLANK where style == .exposureInLines:
            verticalBlanking = min(max(value, SimulatedCamera.modeVerticalBlanking), SimulatedCamera.longestVerticalBlanking)
            // A shorter frame clamps the exposure, as a driver's range update does.
            exposure = min(exposure, Int32(SimulatedCamera.height) + verticalBlanking - SimulatedCamera.exposureMargin)
        case REFLEX_V4L2_CID_FOCUS_ABSOLUTE: focus = min(max(value, 0), 1023)
        case REFLEX_V4L2_CID_FOCUS_AUTO: autofocus = value == 0 ? 0 : 1
        case REFLEX_V4L2_CID_ZOOM_ABSOLUTE: zoom = min(max(value, 100), 400)
        default: throw CameraError.failed("simulated sensor: control \(id)", code: EINVAL)
        }
    }
}
