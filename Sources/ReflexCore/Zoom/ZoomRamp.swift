/// Holding zoom-in or zoom-out ramps the zoom factor exponentially (docs/camera.md, The controls): at rate 2.0
/// it doubles (or halves) each second, between the lens's range and the maximum; releasing
/// holds the value reached. A pure function of the time passed in.
public struct ZoomRamp: Sendable, Equatable {
    public enum Direction: Sendable, Equatable { case zoomIn, zoomOut }

    /// Seed 003's rate 2.0: the factor doubles each second, i.e. one doubling a second.
    public static let seedDoublingsPerSecond = 1.0

    public let range: ClosedRange<Double>
    /// How many times a second the factor doubles (zoom in) or halves (zoom out).
    public let doublingsPerSecond: Double

    /// The factor when no ramp runs, or where the running ramp started.
    private var anchorFactor: Double
    private var running: Ramp?

    private struct Ramp: Sendable, Equatable {
        let direction: Direction
        let since: Double
    }

    /// A lens button's glide to its magnification: from where the zoom was to the target,
    /// evenly in stops (exponentially in the factor) over `glideSeconds`.
    private struct Glide: Sendable, Equatable {
        let from: Double
        let to: Double
        let since: Double
    }
    private var gliding: Glide?
    /// A glide takes this long whatever its length: a zoom, not a cut, and not a wait.
    public static let glideSeconds = 0.3

    public init(range: ClosedRange<Double>, factor: Double = 1.0,
                doublingsPerSecond: Double = ZoomRamp.seedDoublingsPerSecond) {
        precondition(range.lowerBound > 0 && doublingsPerSecond > 0, "zoom needs a positive range and rate")
        self.range = range
        self.doublingsPerSecond = doublingsPerSecond
        anchorFactor = min(max(factor, range.lowerBound), range.upperBound)
    }

    public var isRamping: Bool { running != nil || gliding != nil }

    /// The zoom factor at `now`.
    public func factor(at now: Double) -> Double {
        if let gliding {
            if now - gliding.since >= ZoomRamp.glideSeconds { return gliding.to }
            let progress = min(max((now - gliding.since) / ZoomRamp.glideSeconds, 0), 1)
            let factor = gliding.from * FastMath.exp2(FastMath.log2(gliding.to / gliding.from) * progress)
            return min(max(factor, range.lowerBound), range.upperBound)
        }
        guard let running else { return anchorFactor }
        let held = max(now - running.since, 0)
        let exponent = (running.direction == .zoomIn ? held : -held) * doublingsPerSecond
        return min(max(anchorFactor * FastMath.exp2(exponent), range.lowerBound), range.upperBound)
    }

    /// A zoom key went down. Pressing while another ramp runs continues from where it is.
    public mutating func press(_ direction: Direction, at now: Double) {
        anchorFactor = factor(at: now)
        gliding = nil
        running = Ramp(direction: direction, since: now)
    }

    /// A pinch: the factor set at once (within the range), any ramp stopped.
    public mutating func set(_ factor: Double) {
        anchorFactor = min(max(factor.isFinite ? factor : 1, range.lowerBound), range.upperBound)
        running = nil
        gliding = nil
    }

    /// A lens button: a glide from where the zoom is to `target` (within the range).
    public mutating func glide(to target: Double, at now: Double) {
        let from = factor(at: now)
        let to = min(max(target.isFinite ? target : 1, range.lowerBound), range.upperBound)
        running = nil
        anchorFactor = to
        gliding = from == to ? nil : Glide(from: from, to: to, since: now)
    }

    /// The key came up: hold the factor reached.
    public mutating func release(at now: Double) {
        anchorFactor = factor(at: now)
        running = nil
        gliding = nil
    }

    /// A glide that has arrived is over (called each frame: `isRamping` then says false).
    public mutating func settle(at now: Double) {
        if let gliding, now - gliding.since >= ZoomRamp.glideSeconds { self.gliding = nil }
    }
}
