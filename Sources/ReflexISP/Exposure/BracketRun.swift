import ReflexCore

/// One exposure bracket as the sensor thread shoots it. Each frame's exposure is sent after
/// a frame of the stream, one a frame, so they land on consecutive frames (the control's
/// delay later); the frames that carry them are recognised by their sequence numbers as they
/// come and checked against the exposure each really had (the sensor's own report of it
/// where it gives one); after the last, the base exposure goes back. A frame that did not
/// come, or came exposed otherwise than asked, is counted, never assumed.
/// Pure; nothing allocates once made (one is made a press).
public struct BracketRun: Sendable {
    public let plan: BracketPlan
    /// The exposure the bracket is around (the metered one in Auto, the set one in Pro).
    public let base: ExposureSetting
    private let delayFrames: Int
    /// Each frame's exposure as planned (within the sensor's limits).
    private var planned = InlineArray<7, BracketPlan.Exposure>(
        repeating: BracketPlan.Exposure(offsetThirds: 0, seconds: 0, gain: 0, reached: false))
    /// The frame each exposure was sent after.
    private var sentAfter = InlineArray<7, UInt32>(repeating: 0)
    private var states = InlineArray<7, FrameState>(repeating: .planned)
    /// How many exposures went to the sensor (the base's return not counted).
    public private(set) var sentCount = 0
    /// The base exposure went back after the last.
    public private(set) var restored = false
    /// The frame the base was sent back after.
    private var restoredAfter: UInt32 = 0

    /// Where each of the bracket's frames is.
    public enum FrameState: Sendable, Equatable {
        case planned, sent
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

    /// What to send after the frame now in hand: the next frame's exposure, then the base
    /// again; nil once both went.
    public var nextSetting: ExposureSetting? {
        sentCount < frames ? setting(at: sentCount) : restored ? nil : base
    }

    /// `nextSetting` was sent after frame `sequence`.
    public mutating func sent(afterFrame sequence: UInt32) {
        if sentCount < frames {
            sentAfter[sentCount] = sequence
            states[sentCount] = .sent
            sentCount += 1
        } else {
            (restored, restoredAfter) = (true, sequence)
        }
    }

    /// Whether frame `sequence` is one a value sent after frame `sent` reaches.
    private func reaches(_ sequence: UInt32, sentAfter sent: UInt32) -> Bool {
        // (Sequence numbers wrap: compared by distance.)
        Int32(bitPattern: sequence &- (sent &+ 1 &+ UInt32(delayFrames))) >= 0
    }

    /// The bracket's exposure frame `sequence` carries, by the controls' delay: the newest
    /// sent that reaches it (nil: the base's, before the bracket or after it).
    public func index(ofFrame sequence: UInt32) -> Int? {
        if restored && reaches(sequence, sentAfter: restoredAfter) { return nil }
        var carried: Int?
        for index in 0..<sentCount where reaches(sequence, sentAfter: sentAfter[index]) { carried = index }
        return carried
    }

    /// Frame `sequence` came, exposed with `exposure` (as the sensor reports it); the
    /// bracket's index whose frame it is, if it is the first to carry that exposure. A frame
    /// of the bracket whose turn passed without one coming (frames dropped) is lost.
    @discardableResult
    public mutating func frameArrived(_ sequence: UInt32, exposure: ExposureSetting) -> Int? {
        let carried = index(ofFrame: sequence)
        let passed = restored && reaches(sequence, sentAfter: restoredAfter)
        for index in 0..<sentCount where states[index] == .sent {
            if index == carried {
                let wanted = base.product * FastMath.exp2(Double(planned[index].offsetThirds) / 3)
                let asAsked = planned[index].reached && ExposureSetting.sameBrightness(exposure.product, wanted)
                states[index] = .arrived(sequence: sequence, asAsked: asAsked)
                return index
            }
            if passed || carried.map({ index < $0 }) == true { states[index] = .lost }
        }
        return nil
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
        (sentCount, restored) = (frames, true)
        for index in 0..<frames {
            if case .taken = states[index] { continue }
            states[index] = .lost
        }
    }

    /// Every frame sent, the base back, and each frame taken or lost: the press is done.
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

    /// The viewfinder's brightness kept for a bracket frame: the digital gain that brings
    /// `exposure` back to the base's (1 for any other frame).
    public func previewCompensation(forFrame sequence: UInt32, exposure: ExposureSetting) -> Double {
        guard index(ofFrame: sequence) != nil, exposure.product > 0 else { return 1 }
        return base.product / exposure.product
    }
}
