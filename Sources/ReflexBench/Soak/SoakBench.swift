import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexSystem
import ReflexUI
import ReflexVision
#if canImport(Glibc)
import Glibc
#endif

/// Hours of a photographer's use in one run: the whole camera in this process on the simulated
/// sensor and the headless display, driven by `SoakSchedule` (photos in every format, movies,
/// bursts, dials, zooms, lens switches, the card filled and emptied), with the loop's frame times, missed
/// vblanks, memory, threads, descriptors and the save queue taken each minute, and every
/// file read back by LibRaw, exiftool and ffprobe.
struct SoakBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak", abstract: "Run the camera as a photographer would for N minutes and watch it age.")

    @Option(help: "Minutes to run (the targets are for 60).") var minutes = 60
    @Option(help: "The card's folder (default: a tmpfs of --card-megabytes mounted for the run, where this process may mount; a folder given is never filled).")
    var card: String?
    @Option(help: "The size of the soak's own card.") var cardMegabytes = 1024
    @Option(help: "Where the camera's log goes.") var logFile = "/tmp/reflex-soak.log"

    func run() throws {
        let fontFolder = try BenchFonts.folder()
        for tool in CardFileReader.tools where access(tool, X_OK) != 0 {
            throw BenchError("\(tool) is needed to read the files back (image-build/setup-host installs it)")
        }
        let soakCard = try SoakCard(folder: card, megabytes: cardMegabytes)
        defer { soakCard.finish() }
        let state = TemporaryState()
        defer { state.remove() }
        let log = SoakLog(path: logFile)
        defer { log.close() }
        let model = PersonDetector.locateModel(environment: getenv("REFLEX_MODEL").map { String(cString: $0) },
                                               executablePath: executablePath())
        let camera = try SoakCamera(card: soakCard.folder, state: state.path, fontFolder: fontFolder, modelPath: model,
                                    log: { log.write($0) })
        print("Soak: \(minutes) minutes of the camera on the simulated sensor, headless display at 60 Hz; card "
              + (soakCard.mounted ? "a \(cardMegabytes) MB tmpfs at \(soakCard.folder)" : soakCard.folder + " (not filled)")
              + "; the camera's log in \(logFile)")
        let seconds = Double(minutes) * 60
        print("  planned: \(SoakSchedule.count(over: seconds) { if case .photo = $0 { true } else { false } }) photos in "
              + "\(SoakSchedule.formats.map(\.rawValue).joined(separator: ", ")) in turn, "
              + "\(SoakSchedule.count(over: seconds) { $0 == .shutter(pressed: true) }) bursts held 1 s, "
              + "\(SoakSchedule.count(over: seconds) { $0 == .record } / 2) movies of 60 s, "
              + "\(SoakSchedule.count(over: seconds) { if case .dial = $0 { true } else { false } }) dial turns, "
              + "\(SoakSchedule.count(over: seconds) { if case .lens = $0 { true } else { false } }) lens buttons tapped, "
              + "\(SoakSchedule.count(over: seconds) { $0 == .fillCard }) card fills")
        try camera.start()
        let run = SoakRun(camera: camera, card: soakCard, log: log)
        run.drive(seconds: seconds)
        camera.stop()
        run.finishChecks()
        run.report(log: log)
    }
}

/// A state folder of the soak's own (settings, photo counter, held photos).
private struct TemporaryState {
    let path = "/tmp/reflex-soak-state-\(getpid())"
    init() { mkdir(path, 0o700) }
    func remove() { _ = try? ChildProcess.run(["/bin/rm", "-rf", path], timeout: 60) }
}
