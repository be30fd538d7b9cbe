/// A switch from the lens shown to another, as the zoom asks for it: steady (no switch), or
/// waiting for the other lens's camera to start in standby, or waiting for its next frame
/// once it streams; each wait with its deadline, after which the switch restarts the stream
/// instead (a camera that never starts or stops delivering costs no more than a restart).
/// Pure: it takes the time as an argument, and says what the sensor thread must do.
public struct LensSwitch: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case steady
        /// The lens's camera is being started in standby; the lens shown stays until `until`.
        case waitingForStart(lens: Int, until: Double)
        /// The standby was asked for its next frame; the lens shown stays until `until`.
        case waitingForFrame(lens: Int, until: Double)
    }

    /// How a switch ends.
    public enum Outcome: Sendable, Equatable {
        /// The lens's frame came from standby: the streams swap and that frame shows next.
        case handedOver(lens: Int)
        /// The switch restarts the stream on `lens`, because of `reason`.
        case restart(lens: Int, reason: Reason)
    }

    public enum Reason: Sendable, Equatable {
        /// Nothing streams the lens in standby, nor is it being started there.
        case notInStandby
        /// Its camera did not start within `startPatience`.
        case didNotStart
        /// It streamed, but gave no frame within `framePatience`.
        case gaveNoFrame
    }

    /// What the standby says when asked for a lens at its next frame.
    public enum StandbyAnswer: Sendable, Equatable {
        case streaming, starting, absent
    }

    /// How long a switch waits for a camera still starting in standby: a sensor's power-up
    /// and first frames take a few hundred milliseconds, more on a loaded board; meanwhile
    /// the lens shown stays live, so waiting costs nothing on screen.
    public static let startPatience = 5.0
    /// How long a switch waits for the standby's next frame: three frames of the slowest
    /// sensor a board has (5 fps), so a frame that comes late on a loaded board is still
    /// waited for (300 ms, a frame and a half, was passed under QEMU on a loaded host and
    /// the switch fell back to a restart); still short enough that a standby that stopped
    /// delivering costs little more than a restart.
    public static let framePatience = 0.6

    public private(set) var state = State.steady

    public init() {}

    /// The lens the switch is going to, if one is under way.
    public var target: Int? {
        switch state {
        case .steady: nil
        case .waitingForStart(let lens, _), .waitingForFrame(let lens, _): lens
        }
    }

    public var isSteady: Bool { state == .steady }
    public var isWaitingForFrame: Bool { if case .waitingForFrame = state { true } else { false } }
    public var isWaitingForStart: Bool { if case .waitingForStart = state { true } else { false } }

    /// The zoom asks for `lens` while `shown` is on screen. True when a switch asked before is
    /// called off (the standby must give back anything it handed over for it).
    public mutating func zoomAsks(for lens: Int, shown: Int, at now: Double) -> Bool {
        if lens == target { return false }
        let calledOff = target != nil
        state = lens == shown ? .steady : .waitingForStart(lens: lens, until: now + Self.startPatience)
        return calledOff
    }

    /// The standby's answer to "this lens at your next frame", asked while its camera starts.
    public mutating func standbyAnswered(_ answer: StandbyAnswer, at now: Double) -> Outcome? {
        guard case .waitingForStart(let lens, _) = state else { return nil }
        switch answer {
        case .streaming:
            state = .waitingForFrame(lens: lens, until: now + Self.framePatience)
            return nil
        case .starting:
            return nil
        case .absent:
            state = .steady
            return .restart(lens: lens, reason: .notInStandby)
        }
    }

    /// The standby signalled the frame it was asked for.
    public mutating func frameHandedOver() -> Outcome? {
        guard case .waitingForFrame(let lens, _) = state else { return nil }
        state = .steady
        return .handedOver(lens: lens)
    }

    /// The time is `now`: a wait past its deadline ends in a restart.
    public mutating func timePassed(_ now: Double) -> Outcome? {
        switch state {
        case .steady:
            return nil
        case .waitingForStart(let lens, let until):
            guard now > until else { return nil }
            state = .steady
            return .restart(lens: lens, reason: .didNotStart)
        case .waitingForFrame(let lens, let until):
            guard now > until else { return nil }
            state = .steady
            return .restart(lens: lens, reason: .gaveNoFrame)
        }
    }

    /// The switch is off for another reason (the camera was lost, a lens chosen anew). True
    /// when one was under way, so the standby must give back what it handed over for it.
    public mutating func callOff() -> Bool {
        defer { state = .steady }
        return state != .steady
    }
}
