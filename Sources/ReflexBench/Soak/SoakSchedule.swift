import ReflexCore

/// What `reflex bench soak` does when: a five-minute cycle, repeated. A movie of a minute
/// first; then a photo every 5 s in the formats in turn, a dial turned every 3 s (and the
/// dial picker every 30 s), a burst held for a second, the lens buttons tapped (tele,
/// ultra-wide, wide: photos are taken on each), a zoom in and out, the card filled
/// past its Low storage mark for 40 s and emptied; at the cycle's end the card is read
/// back and cleared. Pure: the caller says how long the soak has run.
public struct SoakSchedule {
    public static let cycleSeconds = 300.0
    public static let formats = CaptureFormat.allCases
    /// The cycle's actions by their second within it, in order.
    public static let cycle: [(at: Double, action: SoakAction)] = {
        var plan: [(at: Double, action: SoakAction)] = [(0, .record), (60, .record)]
        var format = 0
        for second in stride(from: 65.0, through: 290, by: 5) {
            plan.append((second, .photo(formats[format % formats.count])))
            format += 1
        }
        var up = true
        for second in stride(from: 62.0, through: 296, by: 3) {
            plan.append((second, .dial(wheel: 0, detents: up ? 1 : -1)))
            up.toggle()
        }
        for second in stride(from: 90.0, through: 270, by: 30) { plan.append((second + 0.5, .dial(wheel: 1, detents: 1))) }
        plan += [(152, .shutter(pressed: true)), (153, .shutter(pressed: false)),
                 (100, .lens(.tele)), (130, .lens(.ultraWide)), (170, .lens(.wide)),
                 (200, .zoom(inwards: true, pressed: true)), (201.5, .zoom(inwards: true, pressed: false)),
                 (230, .zoom(inwards: false, pressed: true)), (231.5, .zoom(inwards: false, pressed: false)),
                 (240, .fillCard), (280, .emptyCard), (298, .checkCard)]
        return plan.sorted { $0.at < $1.at }
    }()

    /// Seconds of the soak already handed out.
    public private(set) var handedOutUntil = 0.0

    public init() {}

    /// The actions due from the last call's `elapsed` up to (not at) this `elapsed`, in
    /// order, with the second each was due at.
    public mutating func due(until elapsed: Double) -> [(at: Double, action: SoakAction)] {
        guard elapsed > handedOutUntil else { return [] }
        var due: [(at: Double, action: SoakAction)] = []
        let firstCycle = max(0, Int((handedOutUntil / SoakSchedule.cycleSeconds).rounded(.down)))
        let lastCycle = Int((elapsed / SoakSchedule.cycleSeconds).rounded(.down))
        for cycle in firstCycle...lastCycle {
            let start = Double(cycle) * SoakSchedule.cycleSeconds
            for planned in SoakSchedule.cycle {
                let at = start + planned.at
                if at >= handedOutUntil && at < elapsed { due.append((at, planned.action)) }
            }
        }
        handedOutUntil = elapsed
        return due
    }

    /// The same actions' counts over `seconds` (for the report's heading).
    public static func count(over seconds: Double, where matches: (SoakAction) -> Bool) -> Int {
        var schedule = SoakSchedule()
        return schedule.due(until: seconds).filter { matches($0.action) }.count
    }
}
