import ReflexSystem

/// What makes the simulated sensor's frames come when a timer does not: something (a test)
/// that says when each frame is due and stamps it with a clock of its own, so the code
/// reading the sensor sees the same frames at the same moments on any machine. The product
/// paces the sensor by a timer (`SimulatedCamera.Pace.realTime`); the tests' `SensorStepper`
/// (ReflexTestSupport) is one of these.
public protocol FrameStepping: AnyObject, Sendable {
    /// The clock the frames are stamped with.
    var clock: any MovedClock { get }
    /// Readable while frames are due: a read returns how many (8 bytes), as a timerfd's does.
    /// It belongs to the stepping, not to the stream: the sensor never closes it.
    var descriptor: Int32 { get }
    /// The streaming mode's frame time, as the sensor sets it.
    var frameSeconds: Double { get set }
}
