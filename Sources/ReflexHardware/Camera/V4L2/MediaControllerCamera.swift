import CV4L2
import ReflexCore
#if canImport(Glibc)
import Glibc
#endif

/// A camera behind a media controller (Raspberry Pi's unicam and rp1-cfe, i.MX, Rockchip;
/// vimc in the tests): frames come from the capture node, but the sensor's controls
/// (exposure, analogue gain, VBLANK, HBLANK, PIXEL_RATE, test pattern) live on its subdevice
/// and the focus motor on its lens's, and a format is set along the media graph before the
/// node takes the same. To the session it is one camera like any other: each control is
/// sent to the node that has it.
public final class MediaControllerCamera: CameraDevice {
    public var path: String { video.path }
    public var descriptor: Int32 { video.descriptor }
    /// The camera as the session sees it: the capture node's formats that the route can
    /// deliver, and the controls of the node, the sensor and the lens together.
    public let info: CaptureDeviceInfo
    private let video: V4L2Camera
    private let pipeline: MediaPipeline
    /// For each pixel format offered, the bus code that must arrive for it.
    private let codeForPixelFormat: [UInt32: UInt32]
    /// Which node answers for each control.
    private let channelForControl: [UInt32: V4L2ControlChannel]
    /// What arrives at the capture node in the mode streaming now.
    public private(set) var arriving: MediaBusFormat?

    /// Opens the camera at `place`; `node` is the capture node as the probe described it.
    public init(place: MediaCameraPlace, node: CaptureDeviceInfo) throws(CameraError) {
        video = try V4L2Camera(path: place.videoPath)
        pipeline = try MediaPipeline(place)
        var codeForPixelFormat: [UInt32: UInt32] = [:]
        let asksTheNode = video.followsMediaGraph
        for code in pipeline.codesArriving {
            let candidates = asksTheNode ? video.pixelFormats(carrying: code) : MediaBusFormat.pixelFormats(forCode: code)
            for fourCC in candidates where codeForPixelFormat[fourCC] == nil { codeForPixelFormat[fourCC] = code }
        }
        self.codeForPixelFormat = codeForPixelFormat
        var channels: [UInt32: V4L2ControlChannel] = [:]
        var controls: [CaptureDeviceInfo.Control] = []
        // The sensor's and the lens's own before any the capture node repeats.
        for source in pipeline.controlSources {
            for control in source.controls.allControls() where channels[control.id] == nil {
                channels[control.id] = source.controls
                controls.append(control)
            }
        }
        for control in node.controls where channels[control.id] == nil {
            channels[control.id] = video.controlChannel
            controls.append(control)
        }
        channelForControl = channels
        info = CaptureDeviceInfo(path: node.path, driver: place.graph.driver, card: place.sensorName, busInfo: node.busInfo,
                                 formats: node.formats.filter { codeForPixelFormat[$0.fourCC.code] != nil },
                                 controls: controls)
    }

    /// "Sensor A (/dev/v4l-subdev0) → Raw Capture 0: SRGGB12_1X12/640x480", for the log.
    public var routeDescription: String {
        let names = pipeline.place.route.hops.map { pipeline.place.graph.entity($0.entity)?.name ?? "?" }
        // (Appended a part at a time: one long `+` chain is too much for Swift 6.2's type checker.)
        var text = "\(names.first ?? "?") (\(pipeline.sensor.path)) → " + names.dropFirst().joined(separator: " → ")
        if let arriving { text += ": \(arriving)" }
        if let lens = pipeline.lens { text += ", lens on \(lens.path)" }
        if let mounting = pipeline.mounting { text += "; the sensor " + mounting }
        if !pipeline.cutOff.isEmpty {
            text += "; links disabled to keep the stream to its route: " + pipeline.cutOff.joined(separator: ", ")
        }
        return text
    }

    public func setFormat(fourCC: UInt32, width: Int, height: Int) throws(CameraError) -> v4l2_pix_format {
        guard let code = codeForPixelFormat[fourCC] else {
            throw CameraError.failed("\(path): \(FourCC(fourCC)) cannot come from \(pipeline.place.sensorName)", code: EINVAL)
        }
        let arrives = try pipeline.configure(arriving: code, width: width, height: height)
        arriving = arrives
        return try video.setFormat(fourCC: fourCC, width: arrives.width, height: arrives.height)
    }

    public func setFrameRate(_ framesPerSecond: Int) throws(CameraError) -> Double? {
        try video.setFrameRate(framesPerSecond)
    }

    public func start(bufferCount: Int) throws(CameraError) { try video.start(bufferCount: bufferCount) }
    public func dequeue() throws(CameraError) -> CapturedFrame? { try video.dequeue() }
    public func requeue(_ frame: CapturedFrame) throws(CameraError) { try video.requeue(frame) }
    public func stop() { video.stop() }

    public func control(_ id: UInt32) throws(CameraError) -> Int32 { try channel(id).control(id) }
    public func control64(_ id: UInt32) throws(CameraError) -> Int64 { try channel(id).control64(id) }
    public func setControl(_ id: UInt32, to value: Int32) throws(CameraError) { try channel(id).setControl(id, to: value) }
    public func describeControl(_ id: UInt32) -> CaptureDeviceInfo.Control? {
        (try? channel(id))?.describeControl(id)
    }
    public func menuItems(_ id: UInt32) -> [(value: Int64, name: String)] { (try? channel(id))?.menuItems(id) ?? [] }

    private func channel(_ id: UInt32) throws(CameraError) -> V4L2ControlChannel {
        guard let channel = channelForControl[id] else { throw CameraError.failed("\(path): no control \(id)", code: EINVAL) }
        return channel
    }
}
