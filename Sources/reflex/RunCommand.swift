import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexStorage

/// Runs the camera until SIGTERM or SIGINT: the sensor streams on its own thread (Auto
/// exposure and white balance, or the Pro values), reconnecting when the camera comes back.
/// The display lands with its issue; until then there is no picture.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the camera (the default when no subcommand is given).")

    @OptionGroup var state: StateOptions
    @Option(help: "The board's description folder (default: $REFLEX_BOARD_DIR, else /usr/share/reflex/board).")
    var board: String?
    @Option(help: "Where frames come from: v4l2 (the machine's camera, the default) or sim (the simulated sensor).")
    var sensor: SensorChoice = .v4l2

    enum SensorChoice: String, ExpressibleByArgument, CaseIterable { case v4l2, sim }

    @Option(help: "Where the preview goes: drm (the panel, the default) or none.")
    var display: DisplayChoice = .drm

    enum DisplayChoice: String, ExpressibleByArgument, CaseIterable { case drm, none }

    func run() throws {
        TerminationSignal.blockTerminationSignals()
        let store = SettingsStore(folder: StateFolder.resolve(flag: state.stateDirectory))
        let loaded = store.load()
        loaded.warnings.forEach(log)
        log("Reflex \(Reflex.version) starting as \(TerminationSignal.userDescription()), "
            + "\(loaded.settings.mode == .pro ? "Pro" : "Auto") mode"
            + (loaded.isFirstStart ? " (first start)" : "") + ", settings \(store.path)")
        HardwareSummary.lines().forEach(log)
        let (calibration, boardNote) = sensor == .sim
            ? (SensorCalibration.simulated, "board: the simulated sensor's own calibration")
            : BoardFolder.sensorCalibration(in: BoardFolder.resolve(flag: board))
        log(boardNote)
        var panel: DRMDisplay?
        if display == .drm {
            do {
                let opened = try DRMDisplay()
                log("display: \(opened.path) \(opened.driver) \(opened.connectorName) \(opened.width)x\(opened.height)")
                panel = opened
            } catch {
                log("display: none — \(error)")
            }
        }
        let stream = SensorStream(settings: loaded.settings, calibration: calibration,
                                  source: sensor == .sim ? .simulated : .v4l2(devFolder: "/dev"), display: panel,
                                  log: { log($0) })
        stream.start()
        log("running: the sensor streams and meters" + (panel != nil ? " and the preview is on the panel" : "")
            + "; waiting for SIGTERM")
        let signal = TerminationSignal.wait()
        log("stopping (\(signal))")
        stream.stop()
    }
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
