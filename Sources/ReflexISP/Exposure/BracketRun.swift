import ReflexCore

/// One exposure bracket as the sensor thread shoots it. Each frame's exposure is sent after
/// a frame of the stream, one a frame, so they land on consecutive frames (the control's
/// delay later); the frames that carry them are recognised by their sequence numbers as they
/// come and checked against the exposure each really had (the sensor's own report of it
/// where it gives one); after the last, the base exposure goes back. An exposure whose frame
/// did not come (the stream dropped it: a busy or slow board) is sent again, before any not
/// sent yet, `sendsAtMost` times in all; then its frame is counted lost, never assumed.
/// Pure; nothing allocates once made (one is made a press).
public struct BracketRun: Sendable {
    public let plan: BracketPlan
    /// The exposure the bracket is around (the metered one in Auto, the set one in Pro).
    public let base: ExposureSetting
    private let delayFrames: Int
    /// How often one exposure is sent in all before its frame, never come, is lost.
    public static let sendsAtMost = 3
    /// Each frame's exposure as planned (within the sensor's limits).
    private var planned = InlineArray<7, BracketPlan.Exposure>(
        repeating: BracketPlan.Exposure(offsetThirds: 0, seconds: 0, gain: 0, reached: false))
    /// The frame each exposure was sent after last, and how often it was sent.
    private var sentAfter = InlineArray<7, UInt32>(repeating: 0)
    private var sends = InlineArray<7, Int>(repeating: 0)
    private var states = InlineArray<7, FrameState>(repeating: .planned)
    /// The newest values sent, in order (a ring): a frame carries the newest that reaches it.
    private var recent = InlineArray<16, Sent>(repeating: Sent(afterFrame: 0, index: nil))
    private var recentCount = 0
    /// The stream ended under it: nothing more is sent.
    private var abandoned = false

    /// A value sent after frame `afterFrame`: the bracket's `index`-th exposure, or the base (nil).
    private struct Sent: Sendable, Equatable {
        let afterFrame: UInt32
        let index: Int?
    }

    /// Where each of the bracket's frames is.
    public enum FrameState: Sendable, Equatable {
        /// To be sent (again, if its frame never came).
        case planned
        case sent
        /// It came; `asAsked`: with the exposure planned for it (within 1/20 stop).
        case arrived(sequence: UInt32, asAsked: Bool)
        /// On its way to the card.
        case taken(asAsked: Bool)
        /// It did not come, or could not be kept.
        case lost
    }

    /// `times` and `gains`: what the sensor can give at the stream's frame rate. `holdGain`:
    /// Pro brackets by shutter time, its gain held (a sensor whose exposure time cannot
    /// change brackets by gain even so: there is nothing else to move). `delayFrames`: frames
    /// between sending a control and the first frame it shows on.
    public init(plan: BracketPlan, base: ExposureSetting, times: ClosedRange<Double>, gains: ClosedRange<Double>,
                holdGain: Bool, delayFrames: Int) {
        (self.plan, self.base, self.delayFrames) = (plan, base, max(delayFrames, 0))
        let timeMoves = times.upperBound > times.lowerBound
        for index in 0..<plan.frames {
            planned[index] = plan.exposure(at: index, seconds: base.exposure, gain: base.analogGain, times: times,
                                           gains: gains, holdGain: holdGain && timeMoves)
        }
    }

    public var frames: Int { plan.frames }

    /// The `index`-th frame's offset from the base, thirds of a stop.
    public func offsetThirds(at index: Int) -> Int { planned[index].offsetThirds }

    /// The `index`-th frame's exposure as asked of the sensor (the ISP's digital gain kept).
    public func setting(at index: Int) -> ExposureSetting {
        ExposureSetting(exposure: planned[index].seconds, analogGain: planned[index].gain, digitalGain: base.digitalGain)
    }

    /// The bracket's exposure to send next: the first not sent yet, or sent and never come;
    /// nil when none waits to be sent.
    public var nextIndex: Int? {
        for index in 0..<frames where states[index] == .planned { return index }
        return nil
    }

    /// The base went back after the bracket's newest exposure (or the bracket was abandoned).
    public var restored: Bool { abandoned || (recentCount > 0 && recent[(recentCount - 1) % recent.count].index == nil) }

    /// What to send after the frame now in hand: the next exposure, then the base again;
    /// nil once the base went back after the last.
    public var nextSetting: ExposureSetting? {
        if abandoned { return nil }
        if let index = nextIndex { return setting(at: index) }
        return restored ? nil : base
    }

    /// `nextSetting` was sent after frame `sequence`.
    public mutating func sent(afterFrame sequence: UInt32) {
        guard !abandoned else { return }
        let index = nextIndex
        if let index {
            (sentAfter[index], states[index]) = (sequence, .sent)
            sends[index] += 1
        } else if restored {
            return
        }
        recent[recentCount % recent.count] = Sent(afterFrame: sequence, index: index)
        recentCount += 1
    }

    /// Whether frame `sequence` is one a value sent after frame `sent` reaches.
    private func reaches(_ sequence: UInt32, sentAfter sent: UInt32) -> Bool {
        // (Sequence numbers wrap: compared by distance.)
        Int32(bitPattern: sequence &- (sent &+ 1 &+ UInt32(delayFrames))) >= 0
    }

    /// The newest value sent that reaches frame `sequence` (nil: none, the base before the
    /// bracket). One value is sent a frame at most, so at most `delayFrames` + 1 newer ones
    /// are under way: the ring's 16 hold it for delays up to 14 frames (a sensor's is 1–3).
    private func carried(byFrame sequence: UInt32) -> Sent? {
        for back in 0..<min(recentCount, recent.count) {
            let value = recent[(recentCount - 1 - back) % recent.count]
            if reaches(sequence, sentAfter: value.afterFrame) { return value }
        }
        return nil
    }

    /// The bracket's exposure frame `sequence` carries, by the controls' delay: the newest
    /// sent that reaches it (nil: the base's, before the bracket or after it).
    public func index(ofFrame sequence: UInt32) -> Int? { carried(byFrame: sequence)?.index }

    /// Frame `sequence` came, exposed with `exposure` (as the sensor reports it); the
    /// bracket's index whose frame it is, if it is the first to carry that exposure. A frame
    /// of the bracket whose turn passed without one coming (the stream dropped it) is sent
    /// again, or lost once sent `sendsAtMost` times.
    @discardableResult
    public mutating func frameArrived(_ sequence: UInt32, exposure: ExposureSetting) -> Int? {
        let value = carried(byFrame: sequence)
        var arrived: Int?
        for index in 0..<frames where states[index] == .sent {
            if let value, value.index == index, value.afterFrame == sentAfter[index] {
                let wanted = base.product * FastMath.exp2(Double(planned[index].offsetThirds) / 3)
                let asAsked = planned[index].reached && ExposureSetting.sameBrightness(exposure.product, wanted)
                states[index] = .arrived(sequence: sequence, asAsked: asAsked)
                arrived = index
            } else if reaches(sequence, sentAfter: sentAfter[index]) {
                // This frame carries a newer value: the one that carried this exposure never came.
                states[index] = sends[index] < BracketRun.sendsAtMost ? .planned : .lost
            }
        }
        return arrived
    }

    public func state(at index: Int) -> FrameState { states[index] }

    /// The `index`-th frame left for the card.
    public mutating func taken(at index: Int) {
        if case .arrived(_, let asAsked) = states[index] { states[index] = .taken(asAsked: asAsked) }
    }

    /// The `index`-th frame could not be kept.
    public mutating func lost(at index: Int) { states[index] = .lost }

    /// The stream ended under it: the frames still to come are lost, nothing more is sent.
    public mutating func abandon() {
        abandoned = true
        for index in 0..<frames {
            if case .taken = states[index] { continue }
            states[index] = .lost
        }
    }

    /// Each frame taken or lost and the base back after the last: the press is done.
    public var isOver: Bool {
        guard restored else { return false }
        for index in 0..<frames {
            switch states[index] {
            case .taken, .lost: continue
            default: return false
            }
        }
        return true
    }

    /// Frames on their way to the card, and of those, how many were not exposed as asked.
    public var taken: (count: Int, notAsAsked: Int) {
        var result = (count: 0, notAsAsked: 0)
        for index in 0..<frames {
            if case .taken(let asAsked) = states[index] {
                result.count += 1
                if !asAsked { result.notAsAsked += 1 }
            }
        }
        return result
    }

    /// Sends beyond each exposure's first: frames asked for again after the stream dropped them.
    public var framesAskedAgain: Int {
        var count = 0
        for index in 0..<frames { count += max(sends[index] - 1, 0) }
        return count
    }

    /// The viewfinder's brightness kept for a bracket frame: the digital gain that brings
    /// `exposure` back to the base's (1 for any other frame).
    public func previewCompensation(forFrame sequence: UInt32, exposure: ExposureSetting) -> Double {
        guard index(ofFrame: sequence) != nil, exposure.product > 0 else { return 1 }
        return base.product / exposure.product
    }
}
