import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The running camera as a computer on its USB cable sees it (`PTPCamera`): who it is, the
/// card as review lists it, the settings the realtime loop last showed; a capture and a
/// setting posted to the loop as the camera's own keys and dials are, so the screen shows
/// what the computer did.
public final class CameraTether: PTPCamera {
    public let manufacturer: String
    public let model: String
    public let version: String
    public let serialNumber: String
    public let fNumber: Double?
    /// No board here has a fuel gauge yet.
    public let batteryPercent: Int? = nil
    private let loop: @Sendable () -> FrameLoop?
    private let card: @Sendable () -> String?
    private let usb: USBSwitch
    private let lastSettings: Mutex<CameraSettings>
    /// The sensor's newest report: its photo size (for the card's room in photos) and what it
    /// can do.
    private let sensor: @Sendable () -> SensorReport
    /// The bytes of a file's start read for its EXIF thumbnail (its APP1 segment comes first).
    static let headerBytes = 65_536

    /// `loop`: the realtime loop now (nil without a display); `cardRoot`: the card's folder
    /// while a card is in; `settings`: the settings at start (until the loop shows some).
    public init(identity: USBGadgetIdentity, version: String, fNumber: Double?, settings: CameraSettings, usb: USBSwitch,
                sensor: @escaping @Sendable () -> SensorReport, loop: @escaping @Sendable () -> FrameLoop?,
                cardRoot: @escaping @Sendable () -> String?) {
        self.sensor = sensor
        (manufacturer, model, serialNumber) = (identity.manufacturer, identity.product, identity.serialNumber)
        (self.fNumber, self.usb, self.loop, card) = (fNumber, usb, loop, cardRoot)
        self.version = version
        lastSettings = Mutex(settings)
    }

    public var isTethered: Bool { usb.mode == .tethered }

    public var limits: SensorLimits? { sensor().limits }

    public func cardItems() -> [ReviewItem]? {
        card().map { CardCatalog.items(onCardAt: $0) }
    }

    public func storage() -> PTPStorageInfo? {
        guard let root = card() else { return nil }
        var fs = statvfs()
        guard statvfs(root, &fs) == 0 else { return nil }
        let capacity = UInt64(fs.f_blocks) * UInt64(fs.f_frsize)
        let free = fs.f_flag & UInt(ST_RDONLY) != 0 ? 0 : UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
        let shots = StoragePolicy(sensorPixels: sensor().photoPixels).advice(freeBytes: Int64(free), format: settings.format).shotsLeft
        return PTPStorageInfo(capacityBytes: capacity, freeBytes: free, freeImages: UInt32(clamping: shots),
                              description: "Card", volumeLabel: "REFLEX")
    }

    public func path(onCard relative: String) -> String { (card() ?? "/nonexistent") + "/" + relative }

    /// A JPEG's own EXIF thumbnail as the file holds it; a DNG's preview made a JPEG.
    public func thumbnail(onCard relative: String) -> [UInt8]? {
        let path = path(onCard: relative)
        if relative.uppercased().hasSuffix(".DNG") {
            return (try? AtomicFile.read(path, limit: ReviewLoader.rawHeaderBytes)).flatMap(EmbeddedThumbnail.ofDNG)?.jpeg()
        }
        return (try? AtomicFile.read(path, limit: Self.headerBytes)).flatMap(EmbeddedThumbnail.exifThumbnailJPEG)
    }

    public func delete(onCard relative: String) -> PTPResponseCode {
        guard let root = card() else { return .storeNotAvailable }
        let parts = relative.split(separator: "/").map(String.init)
        guard parts.count == 3,
              let item = CardCatalog.items(onCardAt: root).first(where: { item in
                  item.folder == parts[1] && item.files.contains { $0.name == parts[2] }
              }),
              let file = item.files.first(where: { $0.name == parts[2] }) else { return .invalidObjectHandle }
        do throws(SystemError) {
            try CardEraser.deleteFile(file, of: item, onCardAt: root)
            return .ok
        } catch {
            return error.code == EPERM ? .objectWriteProtected : .storeNotAvailable
        }
    }

    /// The shutter key pressed and let go, as the remote's shutter is.
    public func capture() -> PTPResponseCode {
        guard let loop = loop() else { return .deviceBusy }
        let now = monotonicSeconds()
        guard loop.post(.shutter(pressed: true), at: now), loop.post(.shutter(pressed: false), at: now) else { return .deviceBusy }
        return .ok
    }

    public var settings: CameraSettings {
        lastSettings.withLock { last in
            if let shown = loop()?.shownStates.newest() { last = shown.settings }
            return last
        }
    }

    /// The host's setting, posted to the loop as the phone's controls are: its screen shows it.
    public func apply(_ change: PTPSettingChange) -> PTPResponseCode {
        guard let loop = loop() else { return .deviceBusy }
        let control: RemoteControl
        switch change {
        case .mode(let mode): control = .mode(mode)
        case .drive(let drive): control = .drive(drive)
        case .format(let format): control = .format(format)
        case .exposureCompensation(let compensation): control = .exposureCompensation(compensation)
        case .iso(let iso): control = .iso(iso)
        case .shutter(let shutter): control = .shutterSpeed(shutter)
        case .whiteBalance(let whiteBalance): control = .whiteBalance(whiteBalance)
        }
        return loop.post(control, at: monotonicSeconds()) ? .ok : .deviceBusy
    }
}
