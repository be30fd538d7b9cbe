import ReflexCore

/// The one status snapshot the interface reads each frame: the sensor's report (its limits,
/// the metered values, the histogram; a lost camera is its status), the storage card, the
/// save queue, GPS and the settings writer's error. Each part has one writer (the sensor thread, the main thread's card check, the
/// save and GPS threads as they come); `StatusBoard` gathers them.
public struct CameraStatus: Sendable, Equatable {
    public var sensor = SensorReport()
    /// Free bytes on the storage card; nil with no card; not yet checked: `storageChecked` false.
    public var storageFreeBytes: Int64?
    /// The card is there but mounted read-only (its free bytes then 0).
    public var storageReadOnly = false
    public var storageChecked = false
    /// Photos waiting to be saved.
    public var pendingSaves = 0
    /// An Enhanced RAW being merged.
    public var merging = false
    /// The last photo saved (or why it was not).
    public var photo = PhotoReport()
    /// The recording under way, or the last one.
    public var movie = MovieReport()
    /// The timelapse being made, or the last one.
    public var timelapse = TimelapseReport()
    /// What the GPS client is doing (off while geotag is off).
    public var gps: GPSStatus = .off
    /// The remote: off, serving (where, the codes), who is connected.
    public var remote = RemoteReport()
    /// The USB cable: a computer connected or not.
    public var usb = USBConnection.off
    /// Why the settings file cannot be written (a read-only or full state folder), nil while
    /// it can.
    public var settingsError: String?

    public init() {}
}
