import ReflexCore

/// Where a dial stands on its stops, for the ruler under its value: how many stops, which
/// one is current, and which are major (whole stops, every 0.1 of focus, every 1000 K).
public struct DialRuler: Sendable, Equatable {
    public let count: Int
    public let index: Int
    private let majors: [Bool]

    public func isMajor(_ i: Int) -> Bool { majors[i] }

    public init(_ dial: Dial, _ state: ViewState, scales: DialScales) {
        let s = state.settings
        switch dial {
        case .iso:
            let stops = scales.iso.stops
            let current = scales.iso.nearest(to: s.iso.manualValue ?? ISOSpeed(state.readout.iso))
            index = stops.firstIndex(of: current) ?? 0
            // Whole stops are the doublings of 100.
            majors = stops.map { $0.value % 100 == 0 && (($0.value / 100) & ($0.value / 100 - 1)) == 0 }
        case .shutter:
            let stops = scales.shutter.list.stops
            let current = scales.shutter.nearest(toSeconds: (s.shutter.manualValue ?? state.readout.shutter).seconds)
            index = stops.firstIndex(of: current) ?? 0
            let whole: Set<Int> = [1, 2, 4, 8, 15, 30, 60, 125, 250, 500, 1000, 2000, 4000, 8000]
            majors = stops.map { $0.numerator == 1 && whole.contains($0.denominator) }
        case .focus:
            let step = scales.focus.stepThousandths
            let positions = Array(stride(from: 0, through: FocusPosition.scale, by: step))
            let current = s.focus.manualValue?.thousandths ?? FocusPosition.scale
            index = min(positions.count - 1, (current + step / 2) / step)
            majors = positions.map { $0 % FocusScale.markThousandths == 0 }
        case .whiteBalance:
            let stops = KelvinScale.stopTable
            let current = scales.kelvin.nearest(to: s.whiteBalance.kelvin ?? state.readout.kelvin)
            index = stops.firstIndex(of: current) ?? 0
            majors = stops.map { $0 % 1000 == 0 }
        }
        count = majors.count
    }
}
