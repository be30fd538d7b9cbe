import ArgumentParser
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexRemote
import ReflexStorage
import ReflexRuntime
import ReflexSystem
import ReflexUI
import ReflexVision
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
    @OptionGroup var camera: SensorOptions

    @Option(help: """
        Where the picture goes: drm (the panel, the default; waits for one to appear), \
        png:DIR (the headless display: 1280x800 at 60 Hz, DIR/frame.png about once a second) or none.
        """)
    var display: DisplayChoice = .drm

    @Option(help: "The storage card's folder (default: /media/card, where a card counts only when mounted).")
    var storage: String?

    @Option(name: .customLong("display-card"),
            help: "The DRM card to use, /dev/dri/cardN (default: the board's display.conf, else the first with a connected display).")
    var displayCard: String?

    @Option(help: """
        Serve the remote, the camera in a phone's browser, on ADDRESS:PORT (127.0.0.1:8080 on a \
        host), instead of on the board's network (remote.conf), and turn Remote on. Default: the board's.
        """)
    var remote: RemoteAddress?

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
        let (calibration, boardNote) = camera.calibration
        log(boardNote)
        var (panel, panelNote) = BoardFolder.panelConfiguration(in: camera.boardFolder)
        log(panelNote)
        if let displayCard {
            // Another card: the board's connector and mode may not exist on it.
            panel.card = displayCard
            panel.connector = nil
            (panel.modeWidth, panel.modeHeight) = (nil, nil)
        }
        let statistics = StatisticsFile(folder: stateFolder)
        statistics.writeProcessID()
        defer { statistics.removeProcessID() }

        // Remote asked for on the command line: on, for the sensor and the screen as for the
        // keeper, and remembered as a menu change would be.
        var settings = loaded.settings
        if remote != nil && !settings.remote {
            settings.remote = true
            do { try store.save(settings) } catch { log("settings: Remote on could not be saved: \(error)") }
        }
        let status = StatusBoard()
        let writer = SettingsWriter(store: store, status: status, log: { log($0) })
        writer.start()
        let (lenses, lensNotes) = camera.sensor == .v4l2 && camera.camera == nil ? BoardFolder.lenses(in: camera.boardFolder) : ([], [])
        lensNotes.forEach { log($0) }
        let sensorPipeline = SensorPipeline(settings: settings, calibration: calibration, choice: camera.cameraChoice,
                                            lenses: lenses, status: status, log: { log($0) })
        // (A remembered geotag stays on at start; the icon says when there is no GPS to ask.)
        let gps = GPSSetup.start(boardFolder: camera.boardFolder, geotag: settings.geotag,
                                 post: { status.postGPS($0) }, log: { log($0) })
        let photos = startPhotos(sensorPipeline, calibration: calibration, stateFolder: stateFolder, gps: gps)
        let movies = startMovies(sensorPipeline, numbering: photos.numbering)
        let analysis = startAnalysis(sensorPipeline)
        defer { analysis.stop() }
        sensorPipeline.start()
        let captureService = CaptureService(stateFolder: stateFolder, mailbox: sensorPipeline.mailbox, photos: photos,
                                            log: { log($0) })
        captureService.start()
        let fontFolder = FontLibrary.locate(environment: getenv("REFLEX_FONTS_DIR").map { String(cString: $0) },
                                            executablePath: executablePath())
        var screen = display == .none ? nil
            : ScreenStarter(choice: display, panel: panel, sensor: sensorPipeline, store: store, writer: writer,
                            fNumber: calibration.fNumber, fontFolder: fontFolder, log: { log($0) })
        screen?.controls = controls
        screen?.saveDecisions = photos.decisions
        screen?.gps = gps
        screen?.lenses = lenses.map(\.description)
        screen?.movies = movies
        // Interval runs' timelapses, with the movies' encoders (the board's hardware H.264 first).
        let timelapse = TimelapseMaker(runPhotos: photos.intervalRunPhotos, numbering: photos.numbering,
                                       status: sensorPipeline.status,
                                       encoders: VideoEncoderChoice.batchCandidates(memoryToMemory: VideoEncoderProbe.memoryToMemoryH264Encoder()),
                                       log: { log($0) })
        if timelapse.start() { screen?.timelapse = timelapse } else { log("timelapse: cannot start its thread; none is made") }
        screen?.reviewCard = cardFolder
        screen?.reviewSpeaker = BoardFolder.video(in: camera.boardFolder).0.speaker
        screen?.analysis = analysis
        let shownLoop = ShownLoop()
        let remoteKeeper = makeRemote(sensorPipeline, movies: movies, status: status, loop: shownLoop,
                                      on: settings.remote, stateFolder: stateFolder)
        screen?.remote = remoteKeeper.remoteSwitch
        let usbKeeper = makeUSB(sensorPipeline, settings: settings, fNumber: calibration.fNumber, loop: shownLoop)
        screen?.usb = usbKeeper.usbSwitch
        let haptics = Haptics(log: { log($0) })
        let statusLight = controls.statusLight.flatMap { StatusLight(name: $0, log: { log($0) }) }
        if let statusLight { log("status light \(statusLight.name): the self-timer blinks it") }
        screen?.statusLight = statusLight
        screen?.backlight = panel.backlight.flatMap { Backlight(name: $0, log: { log($0) }) }
        if screen != nil, haptics.start() { screen?.haptics = haptics }
        screen?.tryStart()
        shownLoop.set(screen?.loop)
        if !remoteKeeper.start() { log("remote: cannot start its thread; no remote") }
        if !usbKeeper.start() { log("usb: cannot start its thread; no USB") }
        log("running: the sensor streams and meters" + (screen?.loop != nil ? "; the realtime loop shows the picture" : "")
            + "; waiting for SIGTERM")
        var sinceCheck = 0.0, secondsSinceStatistics = 0
        var storageSaid: StorageAdvice.Level??
        waiting: while true {
            // Until the first frame is on the panel the wait is short, so its line comes soon
            // (its time is the flip's own, whenever the line is written).
            let tick = screen?.loop == nil || screen?.hasShownFrame == true ? 1.0 : 0.05
            let signal = TerminationSignal.wait(seconds: tick)
            screen?.reportFirstFrame()
            switch signal {
            case .terminate(let name):
                log("stopping (\(name))")
                break waiting
            case .statistics:
                statistics.publish(screen?.summary() ?? "display: none")
            case .timeout:
                sinceCheck += tick
                guard sinceCheck >= 1 else { continue }
                sinceCheck = 0
                checkEverySecond(&screen, status: sensorPipeline.status, storageSaid: &storageSaid)
                shownLoop.set(screen?.loop)
                secondsSinceStatistics += 1
                if secondsSinceStatistics >= Run.statisticsInterval, let summary = screen?.summary() {
                    log(summary)
                    secondsSinceStatistics = 0
                }
            }
        }
        remoteKeeper.stop()
        usbKeeper.stop()
        shownLoop.set(nil)
        screen?.loop?.stop()
        haptics.stop()
        captureService.stop()
        sensorPipeline.stop()
        movies.stop()
        timelapse.stop()
        photos.stop()
        gps.stop()
        writer.stop()
    }

    /// The card the photos go to.
    private var cardFolder: String { storage ?? "/media/card" }

    /// Photos: a zero-lag ring within the memory budget, and the photo thread that saves
    /// each press's frame to the card.
    private func startPhotos(_ sensor: SensorPipeline, calibration: SensorCalibration, stateFolder: String,
                             gps: GPSDClient) -> PhotoPipeline {
        let (photos, kept) = CameraWiring.photos(for: sensor, calibration: calibration, cardFolder: cardFolder,
                                                 cardIsMountPoint: storage == nil,
                                                 stateFolder: stateFolder, software: "Reflex \(Reflex.version)",
                                                 location: { gps.fix(at: $0) }, log: { log($0) })
        log("photos: to \(cardFolder)/DCIM; the last \(kept) frames kept for zero shutter lag")
        return photos
    }

    /// Movies: the recording sink on the sensor thread and the movie thread, numbered with
    /// the photos, on the same card.
    private func startMovies(_ sensor: SensorPipeline, numbering: CardNumbering) -> MovieRecorder {
        let (video, note) = BoardFolder.video(in: camera.boardFolder)
        log(note)
        let card = cardFolder, mountPoint = storage == nil
        let movies = MovieRecorder(numbering: numbering, format: video.format,
                                   memoryToMemory: VideoEncoderProbe.memoryToMemoryH264Encoder(), microphone: video.microphone,
                                   cardSpace: { StorageProbe.freeBytes(at: card, requireMountPoint: mountPoint) },
                                   status: sensor.status, log: { log($0) })
        sensor.mailbox.attach(movies.sink)
        movies.start()
        return movies
    }

    /// The analysis for auto-zoom: its stream on the sensor, its thread, the person
    /// detector's model: `$REFLEX_MODEL` if set, else the board's (analysis.conf), else the
    /// shipped one where the package installed it (or in a clone's Models/).
    private func startAnalysis(_ sensor: SensorPipeline) -> SubjectAnalysis {
        let environment = getenv("REFLEX_MODEL").map { String(cString: $0) }
        var model: DetectorModel?
        if environment?.isEmpty ?? true {
            let (boardModel, note) = BoardFolder.detectorModel(in: camera.boardFolder)
            log(note)
            model = boardModel
        }
        model = model ?? PersonDetector.locateModel(environment: environment, executablePath: executablePath())
            .map { DetectorModel(path: $0) }
        let analysis = SubjectAnalysis(model: model, log: { log($0) })
        sensor.mailbox.attach(analysis.sink)
        if !analysis.start() { log("auto-zoom: cannot start the analysis thread; the camera runs without auto-zoom") }
        return analysis
    }

    /// The remote: where it reaches a phone (`--remote`'s address, else the board's network),
    /// its live view on the sensor, the pairing, its keeper (not yet started). Without a way or
    /// its page the keeper says why, and the quick menu's Remote line with it.
    private func makeRemote(_ sensor: SensorPipeline, movies: MovieRecorder, status: StatusBoard, loop: ShownLoop, on: Bool,
                            stateFolder: String) -> RemoteKeeper {
        var way = RemoteWay.none(InterfaceText.noRemoteNetwork)
        if let remote {
            way = .address(host: remote.host, port: remote.port)
        } else {
            let (board, note) = BoardFolder.remote(in: camera.boardFolder)
            log(note)
            if let board { way = .board(board) }
        }
        // (The service's runtime folder, /run/reflex: gone when the camera stops, and its
        // request with it.)
        let wanted = getenv("RUNTIME_DIRECTORY").map { String(cString: $0) + "/network-wanted" } ?? NetworkCommand.wantedFile
        func keeper(_ way: RemoteWay, _ stack: RemoteStack?) -> RemoteKeeper {
            RemoteKeeper(way: way, stack: stack, on: on, status: status, stateFolder: stateFolder, networkWanted: wanted,
                         networkState: NetworkCommand.stateFile, log: { log($0) })
        }
        if case .none = way { return keeper(way, nil) }
        guard let page = RemotePage.locate(environment: getenv("REFLEX_REMOTE_PAGE").map { String(cString: $0) },
                                           executablePath: executablePath()) else {
            log("remote: its page is not installed (share/reflex/remote); no remote")
            return keeper(.none(InterfaceText.noRemotePage), nil)
        }
        let liveView = LiveView(log: { log($0) })
        sensor.mailbox.attach(liveView.sink)
        guard liveView.start() else {
            log("remote: cannot start the live view's thread; no remote")
            return keeper(.none(InterfaceText.noRemotePage), nil)
        }
        let card = cardFolder, mountPoint = storage == nil
        let camera = CameraRemote(liveView: liveView, loop: { loop.current },
                                  cardRoot: { StorageProbe.freeBytes(at: card, requireMountPoint: mountPoint) == nil ? nil : card },
                                  movies: movies)
        let pairing = RemotePairingKeeper(file: stateFolder + "/remote-phones", log: { log($0) })
        return keeper(way, RemoteStack(liveView: liveView, camera: camera, pairing: pairing, pageFolder: page))
    }

    /// The USB cable: the camera as a computer sees it, and its keeper (not yet started).
    private func makeUSB(_ sensor: SensorPipeline, settings: CameraSettings, fNumber: Double?, loop: ShownLoop) -> USBKeeper {
        // (The same identity the gadget's service gives the cable: DeviceInfo names it too.)
        let (identity, _) = BoardFolder.usbIdentity(in: camera.boardFolder, version: Reflex.version)
        let usbSwitch = USBSwitch(settings.usb)
        let card = cardFolder, mountPoint = storage == nil
        let status = sensor.status
        let tether = CameraTether(identity: identity, version: Reflex.version, fNumber: fNumber, settings: settings, usb: usbSwitch,
                                  sensor: { status.latestSensorReport() }, loop: { loop.current },
                                  cardRoot: { StorageProbe.freeBytes(at: card, requireMountPoint: mountPoint) == nil ? nil : card })
        // (The request goes in the camera's runtime folder, as the remote's network's does.)
        let wanted = getenv("RUNTIME_DIRECTORY").map { String(cString: $0) + "/usb-wanted" } ?? USBCommand.wantedFile
        return USBKeeper(usbSwitch: usbSwitch, camera: tether, wanted: wanted, state: USBCommand.stateFile,
                         functionFolder: USBCommand.functionFolder, status: sensor.status, log: { log($0) })
    }

    /// The board's controls: its encoders and keys.
    private var controls: BoardControls {
        let (controls, note) = BoardFolder.controls(in: camera.boardFolder)
        log(note)
        return controls
    }

    /// The card is checked every second, so a card taken out shows at once; a display is
    /// looked for while there is none, or again when one failed.
    /// The card's state goes to the log when it changes (`storageSaid`: the last said): there
    /// or not, and which side of the Low storage and critical marks its free space is.
    private func checkEverySecond(_ screen: inout ScreenStarter?, status: StatusBoard,
                                  storageSaid: inout StorageAdvice.Level??) {
        let free = StorageProbe.freeBytes(at: storage ?? "/media/card", requireMountPoint: storage == nil)
        let readOnly = free == 0 && StorageProbe.isReadOnly(at: cardFolder)
        status.postStorage(freeBytes: free, readOnly: readOnly)
        let level: StorageAdvice.Level? = free.map { free in
            readOnly ? .full : free < StoragePolicy.criticalBytes ? .critical : free < StoragePolicy.lowBytes ? .low : .plenty
        }
        if storageSaid == nil || storageSaid! != level {
            storageSaid = .some(level)
            let megabytes = free.map { " with \($0 / 1_000_000) MB free" } ?? ""
            log("storage: " + (level == nil ? "no card at \(cardFolder)" : readOnly ? "the card is read-only: " : "the card\(megabytes): ")
                + (level == .full ? "Card read-only shown, nothing can be saved on it"
                    : level == .critical ? "below 100 MB, a warning at each press"
                    : level == .low ? "below 500 MB, Low storage shown with the shots left"
                    : level == .plenty ? "no warning" : ""))
        }
        if screen?.loop == nil { screen?.tryStart() }
        screen?.checkDisplay()
    }

}

extension DisplayChoice: ExpressibleByArgument {}
