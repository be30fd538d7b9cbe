/// What the PTP responder asks of the running camera (as `RemoteCamera` is for the remote):
/// who it is, the card, and the few things a host may make it do.
public protocol PTPCamera: AnyObject, Sendable {
    /// "Reflex", "Reflex qemu-x86_64", the version, the serial from the machine id.
    var manufacturer: String { get }
    var model: String { get }
    var version: String { get }
    var serialNumber: String { get }
    /// Tethered (capture and settings) rather than files alone.
    var isTethered: Bool { get }
    /// The card's review items now; nil without a card.
    func cardItems() -> [ReviewItem]?
    /// The card's size and space; nil without a card.
    func storage() -> PTPStorageInfo?
    /// The file's path on the card ("DCIM/100REFLX/RFLX0001.JPG" from the card's root).
    func path(onCard relative: String) -> String
    /// The file's own EXIF thumbnail (a JPEG), if it has one.
    func thumbnail(onCard relative: String) -> [UInt8]?
    /// Deletes one file as review does (protect respected, a pair's other half left alone).
    func delete(onCard relative: String) -> PTPResponseCode
    /// Takes a photo as the shutter key would.
    func capture() -> PTPResponseCode
    /// The settings as the camera's screen shows them now.
    var settings: CameraSettings { get }
    /// The lens's f-number and the battery's charge, where the board knows them.
    var fNumber: Double? { get }
    var batteryPercent: Int? { get }
    /// What the sensor streaming now can do (nil before one streamed): the dials' real stops.
    var limits: SensorLimits? { get }
    /// A host's setting, applied as the camera's own dials and menus apply one.
    func apply(_ change: PTPSettingChange) -> PTPResponseCode
}

extension PTPCamera {
    /// (A camera that knows no sensor offers every stop of the dials' tables.)
    public var limits: SensorLimits? { nil }
}
