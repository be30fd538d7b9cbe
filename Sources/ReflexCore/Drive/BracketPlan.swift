/// An exposure bracket: `frames` exposures (3, 5 or 7) `stepThirds` thirds of a stop apart
/// (1 to 9: ±1/3 to ±3 EV) around a base exposure, taken on consecutive frames of the stream
/// in the order photographers' cameras use: the base, then under and over by increasing
/// distance (0, −1, +1, −2, +2, …). The change goes to the exposure time first, within what the
/// sensor allows at its frame rate, and the rest to the gain; a frame that cannot be exposed as
/// asked is marked, so the set can say so and keep what it took. Pure.
public struct BracketPlan: Sendable, Equatable {
    public static let frameChoices = [3, 5, 7]
    public static let stepRange = 1...9

    public let frames: Int
    public let stepThirds: Int

    /// Nil for a count or a step outside the choices.
    public init?(frames: Int, stepThirds: Int) {
        guard BracketPlan.frameChoices.contains(frames), BracketPlan.stepRange.contains(stepThirds) else { return nil }
        (self.frames, self.stepThirds) = (frames, stepThirds)
    }

    /// Each frame's offset from the base, in thirds of a stop, in the order they are taken.
    public var offsetsInThirds: [Int] { (0..<frames).map(offset(at:)) }

    /// The offset of the `index`-th frame taken (0, −step, +step, −2 step, …). Allocates
    /// nothing: the sensor thread asks it frame by frame.
    public func offset(at index: Int) -> Int {
        let distance = (index + 1) / 2
        return (index % 2 == 1 ? -distance : distance) * stepThirds
    }

    /// Where a frame of `offset` comes in the order taken (0, −1, +1, −2 … as 0, 1, 2, 3 …).
    public static func takenOrder(_ offset: Int) -> Int { offset == 0 ? 0 : abs(offset) * 2 - (offset < 0 ? 1 : 0) }

    /// One frame of the bracket: its offset, the exposure time and gain asked for, and whether
    /// they give the offset (false: the sensor's limits stopped it short).
    public struct Exposure: Sendable, Equatable {
        public var offsetThirds: Int
        public var seconds: Double
        public var gain: Double
        public var reached: Bool

        public init(offsetThirds: Int, seconds: Double, gain: Double, reached: Bool) {
            (self.offsetThirds, self.seconds, self.gain, self.reached) = (offsetThirds, seconds, gain, reached)
        }
    }

    /// The bracket around `seconds` at `gain`, within the sensor's exposure times and gains.
    /// (A Pro photographer's set gain stays where it can: `holdGain` keeps it and lets only the
    /// time move.)
    public func exposures(seconds: Double, gain: Double, times: ClosedRange<Double>, gains: ClosedRange<Double>,
                          holdGain: Bool = false) -> [Exposure] {
        (0..<frames).map { exposure(at: $0, seconds: seconds, gain: gain, times: times, gains: gains, holdGain: holdGain) }
    }

    /// The `index`-th frame's exposure (see `exposures`).
    public func exposure(at index: Int, seconds: Double, gain: Double, times: ClosedRange<Double>, gains: ClosedRange<Double>,
                         holdGain: Bool = false) -> Exposure {
        let offset = offset(at: index)
        let wanted = seconds * gain * FastMath.exp2(Double(offset) / 3)
        let time = min(max(wanted / gain, times.lowerBound), times.upperBound)
        let newGain = holdGain ? gain : min(max(wanted / time, gains.lowerBound), gains.upperBound)
        let got = time * newGain
        return Exposure(offsetThirds: offset, seconds: time, gain: newGain, reached: abs(got / wanted - 1) < 0.02)
    }
}
