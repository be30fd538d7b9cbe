import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// Runs the camera until SIGTERM or SIGINT: the sensor streams on its own thread (Auto
/// exposure and white balance, or the Pro values), reconnecting when the camera comes back,
/// and the realtime loop shows the picture and the interface on the panel (or the headless
/// display). SIGUSR1 writes the display's frame statistics to the log and to a file that
/// `reflex stats` reads.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the camera (the default when no subcommand is given).")

    @OptionGroup var state: StateOptions
    @Option(help: "The board's description folder (default: $REFLEX_BOARD_DIR, else /usr/share/reflex/board).")
    var board: String?
    @Option(help: """
        Where frames come from: v4l2 (the machine's camera, the default), sim (the simulated sensor) or \
        sim-csi (the simulated sensor as a CSI sensor: exposure in lines, PIXEL_RATE and HBLANK).
        """)
    var sensor: SensorChoice = .v4l2

    enum SensorChoice: String, ExpressibleByArgument, CaseIterable {
        case v4l2, sim
        case simCSI = "sim-csi"
    }

    @Option(help: "Where to look for V4L2 cameras.")
    var videoDir = "/dev"

    @Option(help: """
        Where the picture goes: drm (the panel, the default; waits for one to appear), \
        png:DIR (the headless display: 1280x800 at 60 Hz, DIR/frame.png about once a second) or none.
        """)
    var display: DisplayChoice = .drm

    @Option(help: "The storage card's folder (default: /media/card, where a card counts only when mounted).")
    var storage: String?

    @Option(help: "The DRM card to use (default: the board's display.conf, else the first with a connected display).")
    var card: String?

    /// Seconds between two frame-statistics lines in the log.
    static let statisticsInterval = 30

    func run() throws {
        TerminationSignal.blockTerminationSignals()
        let stateFolder = StateFolder.resolve(flag: state.stateDirectory)
        let store = SettingsStore(folder: stateFolder)
        let loaded = store.load()
        loaded.warnings.forEach(log)
        log("Reflex \(Reflex.version) starting as \(TerminationSignal.userDescription()), "
            + "\(loaded.settings.mode == .pro ? "Pro" : "Auto") mode"
            + (loaded.isFirstStart ? " (first start)" : "") + ", settings \(store.path)")
        HardwareSummary.lines().forEach(log)
        let (calibration, boardNote) = sensor != .v4l2
            ? (SensorCalibration.simulated, "board: the simulated sensor's own calibration")
            : BoardFolder.sensorCalibration(in: BoardFolder.resolve(flag: board))
        log(boardNote)
        var (panel, panelNote) = BoardFolder.panelConfiguration(in: BoardFolder.resolve(flag: board))
        log(panelNote)
        if let card {
            // Another card: the board's connector and mode may not exist on it.
            panel.card = card
            panel.connector = nil
            (panel.modeWidth, panel.modeHeight) = (nil, nil)
        }
        let statistics = StatisticsFile(folder: stateFolder)
        statistics.writeProcessID()
        defer { statistics.removeProcessID() }

        let exchange = display == .none ? nil : PreviewFrameExchange()
        let saver = SettingsSaver(store: store)
        saver.start()
        let stream = SensorStream(settings: loaded.settings, calibration: calibration,
                                  source: sensor == .sim ? .simulated(.absoluteExposure)
                                      : sensor == .simCSI ? .simulated(.exposureInLines) : .v4l2(devFolder: videoDir), exchange: exchange,
                                  settingsInbox: saver.toSensor, log: { log($0) })
        stream.start()
        var screen = exchange.map { ScreenStarter(choice: display, panel: panel, exchange: $0, store: store,
                                                  saver: saver, fNumber: calibration.fNumber) }
        screen?.tryStart()
        log("running: the sensor streams and meters" + (screen?.loop != nil ? "; the realtime loop shows the picture" : "")
            + "; waiting for SIGTERM")
        var sinceStatistics = 0
        waiting: while true {
            let signal = TerminationSignal.wait(seconds: 1)
            // (Checked whatever woke the wait: a signal in the first second must not lose it.)
            screen?.reportFirstFrame()
            switch signal {
            case .terminate(let name):
                log("stopping (\(name))")
                break waiting
            case .statistics:
                statistics.publish(screen?.summary() ?? "display: none")
            case .timeout:
                // The card: checked every second, so a card taken out shows at once.
                let free = StorageProbe.freeBytes(at: storage ?? "/media/card", requireMountPoint: storage == nil)
                screen?.loop?.storageFreeBytes.store(free ?? -1, ordering: .relaxed)
                if screen?.loop == nil { screen?.tryStart() }
                screen?.checkDisplay()
                sinceStatistics += 1
                if sinceStatistics >= Run.statisticsInterval, let summary = screen?.summary() {
                    log(summary)
                    sinceStatistics = 0
                }
            }
        }
        screen?.loop?.stop()
        stream.stop()
        saver.stop()
    }
}

/// Opens the display and starts the realtime loop on it, retrying while there is no panel
/// yet (at boot, reflex can start before the GPU's driver has made its card).
struct ScreenStarter {
    let choice: DisplayChoice
    let panel: PanelConfiguration
    let exchange: PreviewFrameExchange
    let store: SettingsStore
    let saver: SettingsSaver
    let fNumber: Double?
    private(set) var loop: FrameLoop?
    private var reportedWaiting = false
    private var reportedFirstFrame = false

    init(choice: DisplayChoice, panel: PanelConfiguration, exchange: PreviewFrameExchange, store: SettingsStore,
         saver: SettingsSaver, fNumber: Double?) {
        self.choice = choice
        self.panel = panel
        self.exchange = exchange
        self.store = store
        self.saver = saver
        self.fNumber = fNumber
    }

    mutating func tryStart() {
        guard loop == nil else { return }
        guard let fontFolder = FontLibrary.locate(environment: getenv("REFLEX_FONTS_DIR").map { String(cString: $0) },
                                                  executablePath: executablePath()) else {
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
            // The settings as saved last (a display opened again keeps what was changed on it).
            let model = CameraModel(settings: store.load().settings, limits: .unlimited)
            var input: InputSource?
            do {
                input = try InputSource()
            } catch {
                log("\(error); the screen shows but does not respond to touch or dials")
            }
            let started = FrameLoop(display: opened, exchange: exchange, fonts: fonts, model: model, fNumber: fNumber,
                                    input: input, settingsSaver: saver)
            guard started.start() else { throw DisplayError("cannot start the realtime loop's thread") }
            loop = started
            log("display: \(opened.summary), fonts from \(fontFolder)")
            let layout = ScreenLayout(width: opened.width, height: opened.height, density: opened.density)
            log("display: " + (opened.density.map { "\(Int($0.dotsPerInch.rounded())) dpi from " } ?? "density ")
                + "\(opened.densityOrigin); the interface at \(Formatting.fixed(layout.scale, 2))× its design")
        } catch {
            if !reportedWaiting { log("display: none yet — \(error); trying again every second") }
            reportedWaiting = true
        }
    }

    /// A loop that ended by itself lost its display (unplugged, driver gone): it is let go
    /// (which gives the CRTC back) and a display is looked for again.
    mutating func checkDisplay() {
        guard let loop, loop.ended.load(ordering: .acquiring) else { return }
        log("display: \(loop.displaySummary) failed; looking for a display again")
        loop.stop()
        self.loop = nil
        reportedWaiting = false
        tryStart()
    }

    /// The journal marks the first frame shown once: the boot-time figure ends there.
    mutating func reportFirstFrame() {
        guard !reportedFirstFrame, let loop, loop.hasShownFrame else { return }
        log("display: first frame on the panel")
        reportedFirstFrame = true
    }

    func summary() -> String? {
        guard let loop else { return nil }
        guard let statistics = loop.currentStatistics() else { return "display: the realtime loop did not answer" }
        return statistics.describe(display: loop.displaySummary)
    }

}

/// Where the camera's picture goes.
enum DisplayChoice: ExpressibleByArgument, Equatable {
    case drm
    case png(String)
    case none

    init?(argument: String) {
        switch argument {
        case "drm": self = .drm
        case "none": self = .none
        default:
            guard argument.hasPrefix("png:"), argument.count > 4 else { return nil }
            self = .png(String(argument.dropFirst(4)))
        }
    }

    static var allValueStrings: [String] { ["drm", "png:DIR", "none"] }
}

/// One log line per kind of hardware, so the journal of a booted board says what it has.
enum HardwareSummary {
    static func lines() -> [String] {
        let cameras = CaptureDeviceProbe.scan().devices
        let cards = DisplayProbe.scan().cards
        let inputs = InputProbe.scan().devices
        var lines: [String] = []
        lines.append(cameras.isEmpty ? "camera: none found"
            : "camera: " + cameras.map { "\($0.path) \($0.card) (\($0.formats.count) formats)" }.joined(separator: "; "))
        lines.append(cards.isEmpty ? "display: none found"
            : "display: " + cards.map { card in
                let connected = card.connectors.filter(\.connected).map(\.name)
                return "\(card.path) \(card.driver) [\(connected.isEmpty ? "nothing connected" : connected.joined(separator: ", "))]"
            }.joined(separator: "; "))
        lines.append("input: \(inputs.count) device(s)"
            + (inputs.isEmpty ? "" : ": " + inputs.map(\.name).joined(separator: ", ")))
        return lines
    }
}
