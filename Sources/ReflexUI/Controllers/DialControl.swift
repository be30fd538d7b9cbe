import ReflexCore

/// The Pro dials' rules: a tap on a dial selects it, a double tap puts it back to automatic;
/// the board's encoders (BoardControls) turn the selected dial, pick the dial, or each turn a
/// dial of their own, a detent a stop when turned slowly, more when spun (DialAcceleration),
/// never past a bound; a push selects the next dial. Focus peaking shows while focus turns.
public struct DialControl: Sendable {
    /// Focus peaking stays this long after the focus dial last moved.
    public static let peakingHold = 1.0

    /// Per encoder (by number; the last for unnamed wheels): detents and their pace.
    private var wheels = [DetentAccumulator](repeating: DetentAccumulator(), count: 9)
    private var paces = [DialAcceleration](repeating: DialAcceleration(), count: 9)
    /// The last tap on a dial, for its double tap.
    private var lastTap: (dial: Dial, time: Double)?
    private var peakingUntil = -Double.infinity

    public init() {}

    /// Focus peaking shows: the focus dial moved within `peakingHold`.
    public func peaking(at now: Double) -> Bool { now < peakingUntil }

    /// Encoder `wheel`'s whole detents in `v120` (libinput's units); the remainder is kept.
    mutating func detents(of wheel: Int, v120: Int) -> Int {
        wheels[slot(wheel)].feed(v120: v120)
    }

    /// `detents` of encoder `wheel` in Pro, by the encoder's role.
    mutating func turn(wheel: Int, detents: Int, controls: BoardControls, model: inout CameraModel, metered: MeteredValues,
                       at now: Double, into outcome: inout InterfaceController.Outcome) {
        switch controls.role(ofEncoder: wheel) {
        case .selectedDial:
            let stops = paces[slot(wheel)].stops(forDetents: detents, at: now)
            turn(model.settings.selectedDial, steps: stops, model: &model, metered: metered, at: now, into: &outcome)
        case .dial(let dial):
            guard model.offers(dial) else { break }
            outcome.settingsChanged = model.select(dial)
            let stops = paces[slot(wheel)].stops(forDetents: detents, at: now)
            turn(dial, steps: stops, model: &model, metered: metered, at: now, into: &outcome)
        case .dialPicker:
            outcome.settingsChanged = Self.selectDial(movingBy: detents, model: &model)
        }
    }

    /// `dial` turned `steps` stops (a tick each, a bump at a bound).
    mutating func turn(_ dial: Dial, steps: Int, model: inout CameraModel, metered: MeteredValues, at now: Double,
                       into outcome: inout InterfaceController.Outcome) {
        let before = model.settings
        let result = model.turn(dial, steps: steps, metered: metered)
        outcome.ticks += result.ticks
        outcome.bumped = outcome.bumped || result.bumped
        // A step between focus marks, or leaving Auto at a bound, changes settings without a tick.
        if model.settings != before { outcome.settingsChanged = true }
        if dial == .focus { peakingUntil = now + Self.peakingHold }
    }

    /// A tap on `dial`: selected, or (a second tap within `doubleTapInterval`) back to automatic.
    mutating func tap(_ dial: Dial, model: inout CameraModel, at now: Double, into outcome: inout InterfaceController.Outcome) {
        if let lastTap, lastTap.dial == dial, now - lastTap.time <= InterfaceController.doubleTapInterval {
            outcome.settingsChanged = model.resetToAuto(dial)
            outcome.confirmed = outcome.settingsChanged
            self.lastTap = nil
        } else {
            outcome.settingsChanged = model.select(dial)
            lastTap = (dial, now)
        }
    }

    /// A tap elsewhere (the mode toggle) ends a dial's double tap.
    mutating func forgetTap() { lastTap = nil }

    /// Selects the dial `steps` along from the selected one (round the available dials).
    static func selectDial(movingBy steps: Int, model: inout CameraModel) -> Bool {
        model.select(model.dial(steps, along: model.settings.selectedDial))
    }

    private func slot(_ wheel: Int) -> Int { wheels.indices.contains(wheel) ? wheel : wheels.count - 1 }
}
