import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import ReflexUI
import ReflexVision

/// The camera as `reflex run` wires it, in this process, on the simulated sensor and the
/// headless display at 60 Hz: the sensor thread, the zero-lag ring and the photo thread, the
/// movie thread, auto-zoom's analysis, the settings writer and the realtime loop on its own
/// thread, with a board of three lenses, each the simulated scene at its magnification.
/// Input comes only from `post` (no libinput: the soak is the photographer).
final class SoakCamera {
    let sensor: SensorPipeline
    let photos: PhotoPipeline
    let movies: MovieRecorder
    private let analysis: SubjectAnalysis
    private let writer: SettingsWriter
    let loop: FrameLoop
    private let layout: ScreenLayout

    /// The soak's lenses, a phone's trio (their f-numbers differ, as the photos' EXIF shows).
    static let lenses: [BoardLens] = [(LensDescription.Role.ultraWide, 2.2), (.wide, 1.8), (.tele, 2.8)].map { role, fNumber in
        var calibration = SensorCalibration.simulated
        calibration.fNumber = fNumber
        return BoardLens(description: LensDescription(role: role, camera: "simulated"), calibration: calibration)
    }

    /// `drive`: the drive the photographer shoots in (the soak's: Burst, a press a photo and
    /// a hold a burst). `lenses`: the board's (none: one camera).
    init(card: String, state: String, fontFolder: String, modelPath: String?, drive: DriveSettings? = nil,
         lenses: [BoardLens] = SoakCamera.lenses, format: CaptureFormat? = nil, log: @escaping @Sendable (String) -> Void) throws {
        let store = SettingsStore(folder: state)
        var settings = store.load().settings
        if let drive { settings.drive = drive } else { settings.drive.mode = .burst }
        if let format { settings.format = format }
        let status = StatusBoard()
        sensor = SensorPipeline(settings: settings, calibration: .simulated,
                                choice: CameraChoice(source: .simulated(.absoluteExposure)), lenses: lenses,
                                status: status, log: log)
        writer = SettingsWriter(store: store, status: status, log: log)
        writer.start()
        photos = CameraWiring.photos(for: sensor, calibration: .simulated, cardFolder: card, stateFolder: state,
                                     software: "Reflex soak", log: log).0
        movies = MovieRecorder(numbering: photos.numbering, format: VideoFormat(named: "1080p")!,
                               cardSpace: { StorageProbe.freeBytes(at: card, requireMountPoint: false) },
                               status: status, log: log)
        sensor.mailbox.attach(movies.sink)
        analysis = SubjectAnalysis(modelPath: modelPath, log: log)
        sensor.mailbox.attach(analysis.sink)
        let display = try HeadlessDisplay(folder: nil)
        layout = ScreenLayout(width: display.width, height: display.height, density: display.density)
        loop = FrameLoop(display: display, preview: sensor.preview, status: status, mailbox: sensor.mailbox,
                         fonts: try FontLibrary(folder: fontFolder), model: CameraModel(settings: settings, limits: .unlimited),
                         fNumber: SensorCalibration.simulated.fNumber, settingsWriter: writer,
                         saveDecisions: photos.decisions, lenses: lenses.map(\.description), movies: movies,
                         analysis: analysis)
    }

    /// Where the photographer taps for `role`'s lens (its button, as the screen lays them out).
    /// Posts an input event to the loop at this moment, as libinput would; false if its
    /// queue was full.
    func post(_ event: InputEvent) -> Bool { loop.post(event, at: monotonicSeconds()) }

    func lensButtonCentre(_ role: LensDescription.Role) -> (x: Double, y: Double) {
        let index = SoakCamera.lenses.firstIndex { $0.description.role == role } ?? 0
        let button = layout.lensButtons(count: SoakCamera.lenses.count)[index]
        return (Double(button.x) + Double(button.width) / 2, Double(button.y) + Double(button.height) / 2)
    }

    func start() throws {
        guard movies.start(), analysis.start(), sensor.start() else { throw BenchError("cannot start the camera's threads") }
        guard loop.start() else { throw BenchError("cannot start the realtime loop's thread") }
    }

    /// Stops every thread, a movie under way finished first (as `reflex run` stops).
    func stop() {
        loop.stop()
        sensor.stop()
        movies.stop()
        photos.stop()
        analysis.stop()
        writer.stop()
    }

    /// The status board the loop and the card's checks share.
    var status: StatusBoard { sensor.status }
}
