/// Everything the camera remembers across restarts and power loss. Defaults are the first
/// start: Auto, JPEG, geotag off.
public struct CameraSettings: Sendable, Hashable {
    public var mode: ShootingMode = .auto
    /// Photo or Video: what the shutter button does.
    public var capture: CaptureKind = .photo
    public var format: CaptureFormat = .jpeg
    public var geotag = false
    public var geotagPrecision: GeotagPrecision = .precise
    /// The photographer allowed geotagging once, on the screen that explains it (docs/camera.md,
    /// Geotagging): turning geotag on again does not ask again.
    public var geotagConsent = false
    public var iso: ManualValue<ISOSpeed> = .auto
    public var shutter: ManualValue<ShutterSpeed> = .auto
    public var focus: ManualValue<FocusPosition> = .auto
    public var whiteBalance: WhiteBalance = .auto
    /// The dial the thumb zone had selected.
    public var selectedDial: Dial = .iso
    /// Auto exposure's compensation; kept across modes (it is not a manual value).
    public var exposureCompensation: ExposureCompensation = .zero
    /// Stripes over the clipped parts of the picture (an option; off by default).
    public var zebras = false
    /// Focus peaking while the focus dial turns (on by default).
    public var focusPeaking = true
    /// Rule-of-thirds lines over the picture.
    public var framingGrid = false
    public var jpegQuality: JPEGQuality = .fine
    /// Auto-zoom frames the subject the analysis follows (off by default; a camera without the
    /// person detector's model keeps it off).
    public var autoZoom = false
    /// How large auto-zoom frames the subject.
    public var autoZoomFraming: AutoFraming.Size = .medium
    /// How the shutter takes pictures over time: one a press, a burst while held, after a
    /// countdown, a bracket, or at an interval.
    public var drive = DriveSettings()
    /// The remote: the camera's own network and the page a phone drives it from (off by
    /// default: no radio, no listening socket until asked for).
    public var remote = false
    /// The USB cable: off by default (no gadget until asked for).
    public var usb: USBMode = .off
    /// Where Auto meters: a spot the photographer tapped, or nil for the whole frame. Not
    /// remembered across a restart (a new start meters the whole scene), and cleared by a
    /// change of mode.
    public var meteringPoint: MeteringPoint?

    public init() {}

    public static let firstStart = CameraSettings()

    /// Auto mode has no manual parameter: every one goes back to automatic.
    public var hasManualParameters: Bool {
        iso != .auto || shutter != .auto || focus != .auto || whiteBalance != .auto
    }

    /// Switches mode; leaving Pro returns every manual parameter to automatic.
    public mutating func setMode(_ newMode: ShootingMode) {
        mode = newMode
        meteringPoint = nil
        if newMode == .auto {
            iso = .auto
            shutter = .auto
            focus = .auto
            whiteBalance = .auto
        }
    }
}
