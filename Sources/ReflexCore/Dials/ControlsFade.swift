/// The Pro controls fade after 3 s untouched (docs/camera.md, Auto and Pro) and come back at once.
/// Time is seconds on a monotonic clock, passed in by the caller.
public struct ControlsFade: Sendable, Equatable {
    public static let idleDelay = 3.0
    /// The fade itself is short but not instant, so the controls sink rather than vanish.
    public static let fadeDuration = 0.3
    public static let fadedOpacity = 0.3

    public private(set) var lastInteraction: Double

    public init(now: Double) { lastInteraction = now }

    /// A touch on the controls or a dial turn: full opacity at once.
    public mutating func interact(at now: Double) { lastInteraction = now }

    /// 1.0 until 3 s idle, then a linear fade to 0.3 over `fadeDuration`, then 0.3.
    public func opacity(at now: Double) -> Double {
        let idle = now - lastInteraction
        guard idle > ControlsFade.idleDelay else { return 1.0 }
        guard !isFaded(at: now) else { return ControlsFade.fadedOpacity }
        let progress = (idle - ControlsFade.idleDelay) / ControlsFade.fadeDuration
        return 1.0 - progress * (1.0 - ControlsFade.fadedOpacity)
    }

    /// True while the opacity is moving (the fade itself): a display must redraw every vblank.
    public func isFading(at now: Double) -> Bool {
        now - lastInteraction > ControlsFade.idleDelay && !isFaded(at: now)
    }

    /// Seconds until the fade starts (0 once it has).
    public func secondsUntilFade(at now: Double) -> Double {
        max(0, lastInteraction + ControlsFade.idleDelay - now)
    }

    /// True once the controls sit at their faded opacity.
    public func isFaded(at now: Double) -> Bool {
        now - lastInteraction >= ControlsFade.idleDelay + ControlsFade.fadeDuration
    }
}
