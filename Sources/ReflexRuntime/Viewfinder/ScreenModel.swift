import ReflexCore
import ReflexUI

/// What the viewfinder shows, apart from the hardware: the interface's rules
/// (`InterfaceController`), the screen's state, the camera's status turned into it, and the
/// notices, shown one way. It takes the time as an argument and touches no device: what must
/// leave it (a pulse to feel, settings to send on) comes back as `Effects`, which the
/// realtime loop carries out. Nothing here allocates once made, so the loop may call it
/// every frame.
struct ScreenModel {
    /// What the loop must do after a status was taken in.
    struct Effects: Equatable {
        /// A pulse to play (a new lens, felt).
        var haptic: HapticEffect?
        /// The settings changed here (a focus back to auto on a new lens, geotag refused):
        /// to the sensor, the file and the GPS client.
        var settingsChanged = false
        /// A new histogram for the overlay.
        var histogramChanged = false
        /// New dial scales (a camera with other limits): the painter paints them.
        var scalesChanged = false
        /// Review was closed here (its card went): the review thread is told.
        var reviewClosed = false
    }

    static let noticeSeconds = 3.0
    /// A switch refused says why, and where to turn it on later: longer to read.
    static let refusalNoticeSeconds = 6.0
    /// How long the mark that a photo was taken stays (fading out).
    static let captureMarkSeconds = 0.2
    /// How long geotag just switched on waits for gpsd's answer (a connection's limit is 2 s).
    static let geotagCheckSeconds = 4.0

    // The model's own state is `internal` rather than `private` / `private(set)` only so that its
    // extensions in ScreenModel+*.swift reach it: it is the type's own, no API. Outside them it
    // is read, and changed only through the model's methods, as before.
    var controller: InterfaceController
    /// Auto-zoom beside the manual zoom, the framing it gave last, and the people it follows
    /// (fractions of the zoom-1 picture).
    internal var autoZoom = AutoZoomControl()
    internal var framing = Framing(zoom: 1)
    internal var people = PeopleMarks()
    internal var state: ViewState
    internal var scales: DialScales
    /// The newest histogram the sensor sent (64 bins).
    internal var histogram = [UInt32](repeating: 0, count: 64)
    /// When the last photo was asked for: the mark round the picture fades from then.
    internal var capturedAt = -Double.infinity
    /// Until when the notice on screen stays.
    internal var noticeUntil = -Double.infinity
    /// Photos cancelled for memory already said (-1: none seen yet), and the movie thread's
    /// messages already shown.
    internal var cancelledShown = -1
    /// The timelapse report last taken in (nil: none yet; the first is news only of progress).
    internal var timelapseShown: TimelapseReport?
    /// The newest bracket whose outcome was taken in (nil: none yet).
    internal var bracketShown: BracketOutcome?
    internal var movieMessagesShown = 0
    /// What the card's free space means: the shots left from this camera's real file sizes.
    internal var storagePolicy = StoragePolicy(sensorPixels: 0)
    /// The card's free space as last checked (nil: no card, or not checked yet), and the
    /// interval run (its start) whose shots to come were last checked against it.
    internal var cardFreeBytes: Int64?
    internal var intervalCardCheckedFor: Double?
    /// The board's lenses, and the one streaming as last reported (its role), for the
    /// confirmation at a change.
    internal let boardLenses: [LensDescription]
    internal var reportedLens: LensDescription.Role?
    internal var lensSwitchedAt: Double?
    /// The board's sensor's f-number, in tenths (a board of several lenses has each lens's).
    internal let fNumberTenths: Int
    /// Until when gpsd's first answer after geotag was switched on may still refuse it.
    internal var geotagCheckUntil: Double?

    init(controller: InterfaceController, model: CameraModel, fNumber: Double?, lenses: [LensDescription],
         gps: GPSStatus) {
        self.controller = controller
        state = ViewState(settings: model.settings, hasFocusDial: model.limits.hasFocusControl)
        state.gps = GPSIndicator(geotag: model.settings.geotag, status: gps)
        scales = DialScales(model)
        boardLenses = lenses
        fNumberTenths = fNumber.map { Int(($0 * 10).rounded()) } ?? 0
    }
}
