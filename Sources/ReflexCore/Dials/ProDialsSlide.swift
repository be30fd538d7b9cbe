/// The Pro dials slide in from the bottom edge when Pro is chosen and out again for Auto,
/// with an ease-in-out curve (docs/camera.md, Auto and Pro: 300–500 ms). Time comes in as seconds.
public struct ProDialsSlide: Sendable, Equatable {
    public static let duration = 0.4

    private var shown: Bool
    private var startProgress: Double
    private var startTime: Double

    /// Starts settled: shown (Pro) or hidden (Auto), with no animation.
    public init(shown: Bool) {
        self.shown = shown
        startProgress = shown ? 1 : 0
        startTime = -.infinity
    }

    /// A mode change: the animation starts from wherever the previous one had got to.
    public mutating func set(shown: Bool, at now: Double) {
        guard shown != self.shown else { return }
        startProgress = linearProgress(at: now)
        startTime = now
        self.shown = shown
    }

    /// 0 hidden … 1 shown, eased.
    public func progress(at now: Double) -> Double {
        let t = linearProgress(at: now)
        return t * t * (3 - 2 * t)
    }

    public func isSettled(at now: Double) -> Bool { linearProgress(at: now) == (shown ? 1 : 0) }

    private func linearProgress(at now: Double) -> Double {
        let moved = max(0, now - startTime) / ProDialsSlide.duration
        return shown ? min(1, startProgress + moved) : max(0, startProgress - moved)
    }
}
