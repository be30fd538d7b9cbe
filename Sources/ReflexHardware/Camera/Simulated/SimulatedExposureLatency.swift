import ReflexISP

/// The simulated sensor's timing and controls: new settings take effect two frames after
/// they are asked for, as on a real sensor, and each frame reports what it was taken with.
public struct SimulatedExposureLatency: Sendable {
    public static let framesOfDelay = 2
    private var queue: [ExposureSetting]
    public private(set) var active: ExposureSetting

    public init(initial: ExposureSetting) {
        active = initial
        queue = Array(repeating: initial, count: SimulatedExposureLatency.framesOfDelay)
    }

    /// Called once per frame with the newest request; returns the setting this frame uses.
    public mutating func nextFrame(requested: ExposureSetting) -> ExposureSetting {
        queue.append(requested)
        active = queue.removeFirst()
        return active
    }
}
