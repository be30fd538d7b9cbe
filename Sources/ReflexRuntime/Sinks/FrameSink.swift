import ReflexHardware
/// Where the session's frames go: the preview, and sinks that must not lose frames
/// silently (a raw-frame ring for zero shutter lag, a video encoder, a low-resolution stream
/// for subject detection). `deliver` runs on the sensor thread for every frame and never
/// waits: a sink that cannot keep up drops the frame and counts it.
public protocol FrameSink: AnyObject {
    /// The sink's name, for the log.
    var name: String { get }
    /// Takes `frame`, copying what it keeps; never blocks.
    func deliver(_ frame: SensorFrame)
    /// Frames delivered that the sink had to drop; 0 for one where dropping is right (the
    /// preview: only the newest frame matters).
    var framesLost: Int { get }
}
