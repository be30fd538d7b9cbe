import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A shot taken without the camera's own loop (`reflex capture` with no camera running) waits
/// for what the camera's shutter always finds: the sensor streaming, and Auto exposure and
/// white balance given time to settle on the scene.
public enum StreamSettling {
    /// Seconds the sensor streams before the shot.
    public static let settleSeconds = 1.5
    /// Seconds the sensor has to start streaming at all.
    public static let startLimit = 10.0

    /// Blocks until `status` says the sensor has streamed for `settleSeconds`; false when it
    /// did not start within `startLimit`. (The settling comes after the start's limit, so a
    /// camera slow to start is not refused for the settling it has still to do.)
    public static func wait(for status: StatusBoard, settleSeconds: Double = settleSeconds,
                            startLimit: Double = startLimit) -> Bool {
        let deadline = monotonicSeconds() + startLimit
        var streamingSince: Double?
        while streamingSince.map({ monotonicSeconds() - $0 < settleSeconds }) ?? (monotonicSeconds() < deadline) {
            if streamingSince == nil, status.latestSensorReport().status == .streaming { streamingSince = monotonicSeconds() }
            usleep(20_000)
        }
        return streamingSince != nil
    }
}
