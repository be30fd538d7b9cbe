import ReflexCore
import ReflexHardware
import ReflexSystem
import Synchronization

/// The movie's sink on the sensor thread: while a recording runs, each frame the pacer keeps
/// is copied into a free slot and handed to the movie thread, which gives the slot back once
/// the frame is encoded. With no slot free (the encoder fell behind) the frame is dropped and
/// counted, never waited for. The slots' memory is mapped by the first recording's first
/// frames (a camera that never records holds none) and kept.
public final class RecordingSink: FrameSink, @unchecked Sendable {
    /// A frame on its way to the encoder: its copy and its place in the movie.
    public struct Kept {
        public let copy: FrameCopy
        public let slot: Int64
        /// The recording it belongs to (a frame of one that has ended is only given back).
        public let recording: Int
    }

    public let name = "movie"
    public static let slotCount = 4
    private let slots: [FrameCopy]
    /// Movie thread → sensor thread: slots free to fill. Sensor thread → movie thread: frames.
    private let free: HandOffQueue<FrameCopy>
    public let kept: HandOffQueue<Kept>
    /// The recording under way (numbered from 1), 0 while none; set by the movie thread.
    private let recordingNumber = Atomic<Int>(0)
    private let framesPerSecond = Atomic<Int>(30)
    /// The frames kept of the recording paced (sensor thread only).
    private var pacer = FramePacer(framesPerSecond: 30)
    private var pacedRecording = 0
    private let firstFrameNanoseconds = Atomic<Int64>(0)
    private let dropped = Atomic<Int>(0)
    /// Frames handed to the movie thread and not given back yet.
    private let handedOver = Atomic<Int>(0)
    /// Frames of a kind the movie cannot take (Motion-JPEG), said once a recording.
    private let refused = Atomic<Int>(0)

    /// `wakes`: the movie thread's eventfd.
    public init(wakes: EventSignal) {
        slots = (0..<RecordingSink.slotCount).map { _ in FrameCopy() }
        free = HandOffQueue(capacity: RecordingSink.slotCount)
        kept = HandOffQueue(capacity: RecordingSink.slotCount, wakes: wakes)
        for slot in slots { free.send(slot) }
    }

    /// Frames dropped because the encoder had not given a slot back.
    public var framesLost: Int { dropped.load(ordering: .relaxed) }
    public var framesRefused: Int { refused.load(ordering: .relaxed) }
    /// Frames the movie thread has yet to encode (a test that steps the sensor waits for 0).
    public var framesInFlight: Int { handedOver.load(ordering: .acquiring) }

    // MARK: the sensor thread's side

    public func deliver(_ frame: SensorFrame) {
        let recording = recordingNumber.load(ordering: .acquiring)
        guard recording != 0, frame.isComplete else { return }
        guard !frame.mode.isMotionJPEG else {
            refused.wrappingAdd(1, ordering: .relaxed)
            return
        }
        if recording != pacedRecording {
            pacer = FramePacer(framesPerSecond: framesPerSecond.load(ordering: .relaxed))
            pacedRecording = recording
        }
        guard let slot = pacer.slot(forFrameAt: frame.timestampNanoseconds) else { return }
        if slot == 0 { firstFrameNanoseconds.store(frame.timestampNanoseconds, ordering: .releasing) }
        guard let copy = free.receive() else {
            dropped.wrappingAdd(1, ordering: .relaxed)
            return
        }
        copy.fill(frame)
        handedOver.wrappingAdd(1, ordering: .relaxed)
        kept.send(Kept(copy: copy, slot: slot, recording: recording))
    }

    // MARK: the movie thread's side

    /// Frames from now on belong to recording `number` (from 1), at `framesPerSecond`.
    public func arm(recording number: Int, framesPerSecond: Int) {
        precondition(number > 0)
        self.framesPerSecond.store(framesPerSecond, ordering: .relaxed)
        firstFrameNanoseconds.store(0, ordering: .relaxed)
        recordingNumber.store(number, ordering: .releasing)
    }

    /// No more frames are kept.
    public func disarm() { recordingNumber.store(0, ordering: .releasing) }

    /// The capture time of the recording's first frame (its time zero), 0 before it came.
    public var startNanoseconds: Int64 { firstFrameNanoseconds.load(ordering: .acquiring) }

    /// A slot back, once its frame is encoded.
    public func giveBack(_ copy: FrameCopy) {
        free.send(copy)
        handedOver.wrappingSubtract(1, ordering: .releasing)
    }
}
