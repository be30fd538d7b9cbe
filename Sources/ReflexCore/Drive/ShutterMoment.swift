/// Which frame a press of the shutter takes (zero shutter lag): the one whose exposure was
/// under way at the press, so the photo holds what the photographer saw then, not what came
/// after. Pure: the frames' kernel timestamps and exposures come in; nothing reads a clock.
///
/// A frame is "under way" through its frame period: a rolling-shutter sensor exposes and
/// reads out a frame's rows across that period, and the viewfinder shows it next. With a
/// manual exposure longer than a preview frame, the press starts the exposure as a real
/// shutter does: the photo is the first frame whose exposure begins at or after the press.
public struct ShutterMoment: Sendable, Equatable {
    /// What V4L2's timestamp marks (V4L2_BUF_FLAG_TSTAMP_SRC_*).
    public enum TimestampMark: Sendable, Equatable {
        /// The end of the frame: the last row read out (most drivers; `TSTAMP_SRC_EOF`).
        case endOfFrame
        /// The start of the first row's exposure (`TSTAMP_SRC_SOE`).
        case startOfExposure
    }

    /// One frame the ring holds.
    public struct Frame: Sendable, Equatable {
        public var sequence: UInt32
        public var timestampNanoseconds: Int64
        public var exposureSeconds: Double

        public init(sequence: UInt32, timestampNanoseconds: Int64, exposureSeconds: Double) {
            (self.sequence, self.timestampNanoseconds, self.exposureSeconds) = (sequence, timestampNanoseconds, exposureSeconds)
        }
    }

    public enum Choice: Sendable, Equatable {
        /// This frame (its sequence number) is the photo.
        case take(UInt32)
        /// The photo's frame has not arrived yet: ask again with the next frame.
        case wait
        /// The press is older than every frame kept (the ring was too short for the delay
        /// the press came with): the oldest is the nearest there is.
        case late(UInt32)
    }

    /// The press, monotonic clock (the input event's kernel time), nanoseconds.
    public let pressNanoseconds: Int64
    /// The preview's frame period, seconds.
    public let frameSeconds: Double
    public let mark: TimestampMark

    public init(pressNanoseconds: Int64, frameSeconds: Double, mark: TimestampMark) {
        (self.pressNanoseconds, self.frameSeconds, self.mark) = (pressNanoseconds, frameSeconds, mark)
    }

    /// The photo among `frames` (oldest first), or wait for more.
    public func choose(from frames: some Collection<Frame>) -> Choice {
        guard let oldest = frames.first else { return .wait }
        for frame in frames {
            if isLong(frame) {
                // The first exposure to begin at or after the press.
                if exposureStart(of: frame) >= pressNanoseconds { return .take(frame.sequence) }
            } else if end(of: frame) > pressNanoseconds {
                // The first frame still under way at the press (a press in a dropped frame's
                // period, or in the jitter between two, takes the next).
                let pressedBeforeIt = frame.sequence == oldest.sequence && start(of: frame) > pressNanoseconds
                return pressedBeforeIt ? .late(frame.sequence) : .take(frame.sequence)
            }
        }
        return .wait
    }

    private func isLong(_ frame: Frame) -> Bool { frame.exposureSeconds > frameSeconds * 1.05 }

    private func exposureStart(of frame: Frame) -> Int64 {
        mark == .startOfExposure ? frame.timestampNanoseconds : frame.timestampNanoseconds - nanoseconds(frame.exposureSeconds)
    }

    private func start(of frame: Frame) -> Int64 {
        mark == .startOfExposure ? frame.timestampNanoseconds : frame.timestampNanoseconds - nanoseconds(frameSeconds)
    }

    private func end(of frame: Frame) -> Int64 {
        mark == .startOfExposure ? frame.timestampNanoseconds + nanoseconds(frameSeconds) : frame.timestampNanoseconds
    }

    private func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }
}
