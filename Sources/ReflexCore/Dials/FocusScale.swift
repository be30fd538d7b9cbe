/// The focus dial: continuous, with a fixed step, a tick at every 0.1 mark it reaches and a
/// bump at 0.0 and 1.0.
public struct FocusScale: Sendable, Equatable {
    /// Seed 001: `positionChangePerStep` = 0.02.
    public static let defaultStepThousandths = 20
    public static let markThousandths = 100

    public let stepThousandths: Int

    public init(stepThousandths: Int = FocusScale.defaultStepThousandths) {
        precondition(stepThousandths > 0 && stepThousandths <= FocusPosition.scale, "focus step out of range")
        self.stepThousandths = stepThousandths
    }

    /// One dial step: up = farther. A tick when the step arrives at or passes a 0.1 mark
    /// (bounds included), nothing otherwise, a bump when already at the bound.
    public func step(from position: FocusPosition, _ direction: DialDirection) -> StepResult<FocusPosition> {
        let old = position.thousandths
        let bound = direction == .up ? FocusPosition.scale : 0
        if old == bound { return StepResult(value: position, feedback: .bump) }
        let new = FocusPosition(thousandths: old + direction.offset * stepThousandths).thousandths
        let mark = FocusScale.markThousandths
        // Arriving at or passing a mark: up crosses m when old < m ≤ new, down when new ≤ m < old.
        // (Positions are 0…1000, so integer division is floor and (a + m − 1) / m is ceiling.)
        let crossed = direction == .up
            ? new / mark > old / mark
            : (new + mark - 1) / mark < (old + mark - 1) / mark
        return StepResult(value: FocusPosition(thousandths: new), feedback: crossed ? .tick : .none)
    }
}
