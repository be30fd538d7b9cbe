import ReflexCore

/// The one status snapshot the interface reads each frame: the sensor's report (its limits,
/// the metered values, the histogram), the storage card, the save queue, GPS and the newest
/// error. Each part has one writer (the sensor thread, the main thread's card check, the
/// save and GPS threads as they come); `StatusBoard` gathers them.
public struct CameraStatus: Sendable, Equatable {
    public var sensor = SensorReport()
    /// Free bytes on the storage card; nil with no card; not yet checked: `storageChecked` false.
    public var storageFreeBytes: Int64?
    public var storageChecked = false
    /// Photos waiting to be saved.
    public var pendingSaves = 0
    /// Whether GPS is on and has a fix.
    public var gps: GPSState = .off
    /// The newest problem to tell the photographer (a settings file that cannot be saved, a
    /// camera that refuses a control), nil when all is well.
    public var error: String?

    public enum GPSState: Sendable, Equatable {
        case off, searching, fix
    }

    public init() {}
}
