import ReflexCore
import ReflexHardware
import ReflexStorage
import ReflexSystem
import ReflexUI

/// Opens the display and starts the realtime loop on it, retrying while there is no panel
/// yet (at boot, reflex can start before the GPU's driver has made its card), and again when
/// a running display fails.
public struct ScreenStarter {
    public typealias Log = @Sendable (String) -> Void

    let choice: DisplayChoice
    let panel: PanelConfiguration
    let sensor: SensorPipeline
    let store: SettingsStore
    let writer: SettingsWriter
    let fNumber: Double?
    /// The fonts folder (nil: none found, said once).
    let fontFolder: String?
    /// The board's shutter keys.
    public var controls = BoardControls()
    /// The board's vibrator, kept across displays.
    public var haptics: Haptics?
    /// The board's status LED (the self-timer blinks it).
    public var statusLight: StatusLight?
    /// The panel's backlight (an interval run dims it between photos).
    public var backlight: Backlight?
    /// Retry and Discard, to the photo thread.
    public var saveDecisions: HandOffQueue<SaveDecision>?
    /// The gpsd client, switched with geotag.
    public var gps: GPSDClient?
    /// The board's lenses, for their buttons.
    public var lenses: [LensDescription] = []
    /// The movie thread, for the record button.
    public var movies: MovieRecorder?
    /// Makes interval runs' timelapses.
    public var timelapse: TimelapseMaker?
    /// The analysis thread, for auto-zoom.
    public var analysis: SubjectAnalysis?
    /// The remote's switch, for the quick menu's Remote and Forget phones.
    public var remote: RemoteSwitch?
    /// The USB keeper's switch, for the quick menu's USB.
    public var usb: USBSwitch?
    /// The card's folder, for review (nil: no review), and the speaker its movies play on.
    public var reviewCard: String?
    public var reviewSpeaker: String?
    let log: Log
    public private(set) var loop: FrameLoop?
    private var reportedWaiting = false
    private var reportedFirstFrame = false

    public init(choice: DisplayChoice, panel: PanelConfiguration, sensor: SensorPipeline, store: SettingsStore,
                writer: SettingsWriter, fNumber: Double?, fontFolder: String?, log: @escaping Log) {
        self.choice = choice
        self.panel = panel
        self.sensor = sensor
        self.store = store
        self.writer = writer
        self.fNumber = fNumber
        self.fontFolder = fontFolder
        self.log = log
    }

    public mutating func tryStart() {
        guard loop == nil else { return }
        guard let fontFolder else {
            if !reportedWaiting { log("display: no fonts found (set REFLEX_FONTS_DIR); the picture cannot be shown") }
            reportedWaiting = true
            return
        }
        do {
            let opened: DisplayOutput = switch choice {
            case .drm: try DRMDisplay(panel)
            case .png(let folder): try HeadlessDisplay(folder: folder)
            case .none: throw DisplayError("no display asked for")
            }
            let fonts = try FontLibrary(folder: fontFolder)
            let layout = ScreenLayout(width: opened.width, height: opened.height, density: opened.density)
            // The settings as saved last (a display opened again keeps what was changed on it).
            let model = CameraModel(settings: store.load().settings, limits: .unlimited)
            var input: InputSource?
            do {
                input = try InputSource(encoderNames: controls.encoders.map(\.name))
            } catch {
                log("\(error); the screen shows but does not respond to touch or dials")
            }
            let started = FrameLoop(display: opened, preview: sensor.preview, status: sensor.status, mailbox: sensor.mailbox,
                                    fonts: fonts, model: model, fNumber: fNumber, input: input, settingsWriter: writer,
                                    controls: controls, haptics: haptics, statusLight: statusLight, backlight: backlight,
                                    saveDecisions: saveDecisions,
                                    gps: gps, lenses: lenses, movies: movies, analysis: analysis, timelapse: timelapse,
                                    reviewer: reviewCard.map {
                                        Reviewer(card: $0, width: opened.width, height: opened.height, speaker: reviewSpeaker,
                                                 badges: IndexBadges(fonts: fonts, scale: layout.scale), log: log)
                                    }, remote: remote, usb: usb)
            guard started.start() else { throw DisplayError("cannot start the realtime loop's thread") }
            loop = started
            log("display: \(opened.summary), fonts from \(fontFolder)")
            log("display: " + (opened.density.map { "\(Int($0.dotsPerInch.rounded())) dpi from " } ?? "density ")
                + "\(opened.densityOrigin); the interface at \(Formatting.fixed(layout.scale, 2))× its design")
        } catch {
            if !reportedWaiting { log("display: none yet — \(error); trying again every second") }
            reportedWaiting = true
        }
    }

    /// A loop that ended by itself lost its display (unplugged, driver gone): it is let go
    /// (which gives the CRTC back) and a display is looked for again.
    public mutating func checkDisplay() {
        guard let loop, loop.ended.load(ordering: .acquiring) else { return }
        log("display: \(loop.displaySummary) failed; looking for a display again")
        loop.stop()
        self.loop = nil
        reportedWaiting = false
        tryStart()
    }

    /// The journal marks the first frame shown once, with the time it took from the
    /// process's start to that flip (taken when the flip came, whenever this runs).
    public mutating func reportFirstFrame() {
        guard !reportedFirstFrame, let loop, let flippedAt = loop.firstFlipBootSeconds else { return }
        let sinceStart = flippedAt - ProcessClock.startBootSeconds
        log("display: first frame on the panel \(Int((sinceStart * 1000).rounded())) ms after start "
            + "(\((flippedAt * 1000).rounded() / 1000) s after the kernel started)")
        reportedFirstFrame = true
    }

    public var hasShownFrame: Bool { reportedFirstFrame }

    public func summary() -> String? {
        guard let loop else { return nil }
        guard let statistics = loop.currentStatistics() else { return "display: the realtime loop did not answer" }
        return statistics.describe(display: loop.displaySummary)
    }
}
