import ReflexCore

/// Everything the interface draws, as plain values: two equal states draw the same pixels,
/// so the loop repaints only when this changes.
public struct ViewState: Sendable, Equatable {
    public var screen: CameraScreen
    public var settings: CameraSettings
    public var readout: ExposureReadout
    public var hasFocusDial: Bool
    public var gps: GPSIndicator
    /// The remote as its keeper reported it (its sheet's codes, its icon).
    public var remote = RemoteReport()
    /// The USB cable (its icon).
    public var usb = USBConnection.off
    /// Pictures still being written.
    public var savingCount: Int
    /// An Enhanced RAW being merged (it takes a second or two).
    public var processing = false
    public var storage: StorageIndicator
    /// Zebras are a setting, shown as set.
    public var zebras: Bool { settings.zebras }
    /// The digital zoom in tenths (10 = none), as the HUD shows it.
    public var zoomTenths = 10
    /// The shutter's half press holds exposure and white balance: the lock sign shows.
    public var exposureLocked = false
    /// The camera gives raw frames (else the format badge says RAW cannot be chosen).
    public var rawAvailable = true
    /// The last photo taken, shown in a corner.
    public var lastPhoto: PhotoThumbnail?
    /// A one-line reason shown in the top bar for a few seconds.
    public var notice: String?
    /// Photos that could not be saved, held: the banner with Retry and Discard.
    public var saveProblem: SaveProblem?
    /// The quick menu: open or not, and its highlighted line.
    public var menu = QuickMenu()
    /// The lenses offered (buttons where more than one), and the one streaming.
    public var lenses = LensSet([])
    public var activeLens: Int?
    /// A movie being recorded: the red dot, its time and the card's time left.
    public var recording: RecordingIndicator?
    /// Review, while it is open (the card's photos full screen instead of the viewfinder).
    public var review: ReviewScreen?
    /// The AUTO ZOOM button, and "Subject lost" while it searches.
    public var autoZoom = AutoZoomIndicator.unavailable
    /// The self-timer's seconds left, large over the picture (nil: no countdown).
    public var countdown: Int?
    /// An interval run under way: its shots and the time to the next (in the drive's chip).
    public var interval: IntervalProgress?

    public init(screen: CameraScreen = .live, settings: CameraSettings = CameraSettings(),
                readout: ExposureReadout = ExposureReadout(iso: 100, shutter: ShutterSpeed(1, 125), fNumberTenths: 28, kelvin: 5500),
                hasFocusDial: Bool = true, gps: GPSIndicator = .off, savingCount: Int = 0,
                storage: StorageIndicator = .ready) {
        self.screen = screen
        self.settings = settings
        self.readout = readout
        self.hasFocusDial = hasFocusDial
        self.gps = gps
        self.savingCount = savingCount
        self.storage = storage
    }
}
