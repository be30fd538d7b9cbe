import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `reflex capture`: photos for integrators and scripts, as rpicam-still takes them, through
/// the camera's own pipeline (zero-lag ring, photo ISP, DNG and JPEG, DCF names). While the
/// camera runs it owns the sensor, so the running camera is asked to take the shot; otherwise
/// the command streams the camera itself until exposure settles, then shoots.
struct Capture: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a photo (or a burst) and print the files written.",
        discussion: """
            Files go to DIR/DCIM/100REFLX/RFLX0001.JPG (.DNG), numbered after the camera's own. \
            While the camera runs, the shot is the running camera's (with its settings; --format \
            applies to these photos only).
            """)

    @OptionGroup var state: StateOptions
    @OptionGroup var camera: SensorOptions

    @Option(name: [.customShort("o"), .long], help: "The card's folder (default: /media/card).")
    var output: String?
    @Option(help: "jpeg | raw | raw+jpeg (default: the saved setting).")
    var format: CaptureFormat?
    @Option(help: "Photos to take at the camera's burst rate (10 a second).")
    var burst = 1
    @Option(name: .customLong("self-timer"),
            help: "2s | 10s | 10s-3: the photo that long after the command (10s-3: three photos a second apart).")
    var selfTimer: SelfTimerDelay?
    @Option(help: "Photos at this interval, 1s … 24h (5s, 1m30s, 2h): --count of them, the first after --delay.")
    var interval: String?
    @Option(help: "With --interval: how many photos, 1 … 9999.")
    var count = 10
    @Option(help: "With --interval: the wait before the first photo, 0s … 24h.")
    var delay = "0s"
    @Option(help: "3 | 5 | 7: an exposure bracket of that many photos on consecutive frames (base, under, over, …).")
    var bracket: Int?
    @Option(name: .customLong("bracket-step"), help: "With --bracket: EV between its photos, 1/3 … 3 (default 1).")
    var bracketStep = "1"
    @Option(help: "ISO: auto or a stop (100, 125 … 12800).")
    var iso: String?
    @Option(help: "Shutter: auto, 1/8000 … 1/4, 0.3\" … 1\".")
    var shutter: String?
    @Option(help: "White balance: auto, a preset or a Kelvin stop (5600K).")
    var wb: String?
    @Option(help: "Exposure compensation in thirds of a stop (+1/3, -1, +0.7).")
    var ev: String?
    @Flag(help: "Print one JSON object per photo.")
    var json = false

    func validate() throws {
        guard (1...CaptureService.largestBurst).contains(burst) else {
            throw ValidationError("--burst takes 1 to \(CaptureService.largestBurst) photos")
        }
        if selfTimer != nil && burst != 1 { throw ValidationError("--self-timer takes its own photos: leave out --burst") }
        if bracket != nil {
            guard selfTimer == nil && burst == 1 && interval == nil else {
                throw ValidationError("--bracket takes its own photos: leave out --burst, --self-timer and --interval")
            }
            guard bracketPlan != nil else { throw ValidationError("--bracket takes 3, 5 or 7 photos, --bracket-step 1/3 … 3") }
        }
        if interval != nil {
            guard selfTimer == nil && burst == 1 else {
                throw ValidationError("--interval takes its own photos: leave out --burst and --self-timer")
            }
            guard intervalRun != nil, DriveSettings.countRange.contains(count) else {
                throw ValidationError("--interval takes 1s … 24h (5s, 1m30s, 2h), --count 1 … 9999, --delay 0s … 24h")
            }
        }
    }

    /// The bracket the options ask for (nil: none, or options out of range).
    private var bracketPlan: BracketPlan? {
        guard let bracket, let step = ExposureCompensation(parsing: bracketStep) else { return nil }
        return BracketPlan(frames: bracket, stepThirds: step.thirds)
    }

    /// The interval run the options ask for (nil: none, or options out of range).
    private var intervalRun: IntervalSchedule? {
        guard let seconds = interval.flatMap(DurationText.seconds(parsing:)),
              let wait = DurationText.seconds(parsing: delay), wait <= 86_400 else { return nil }
        return IntervalSchedule(interval: Double(seconds), count: count, firstDelay: Double(wait))
    }

    func run() throws {
        let stateFolder = StateFolder.resolve(flag: state.stateDirectory)
        let socket = stateFolder + "/" + CaptureService.socketName
        let started = monotonicSeconds()
        if let selfTimer {
            log("capture: self-timer: the photo in \(Int(selfTimer.seconds)) s" + (selfTimer.shots > 1 ? ", then \(selfTimer.shots - 1) more a second apart" : ""))
        }
        if let run = intervalRun {
            log("capture: interval: \(count) photos every \(DurationText.text(Int(run.interval)))"
                + (run.firstDelay > 0 ? ", the first in \(DurationText.text(Int(run.firstDelay)))" : ""))
        }
        // With the self-timer or an interval and a camera running (its socket there), the
        // running camera is asked as each photo falls due, one connection a photo: none is
        // held open meanwhile.
        if selfTimer != nil || intervalRun != nil, access(socket, F_OK) == 0 {
            var failed = false
            do {
                try forEachShot(startedAt: started) {
                    guard let running = try UnixSocket.connect(to: socket) else { throw CameraNotRunning() }
                    do { try askRunningCamera(running, photos: 1) } catch is ExitCode { failed = true }
                }
            } catch is CameraNotRunning {
                // (Not running after all: the command shoots alone, late by the stream's start.)
                return try shootAlone(stateFolder: stateFolder, startedAt: started)
            }
            if failed { throw ExitCode(1) }
        } else if let running = try UnixSocket.connect(to: socket) {
            try askRunningCamera(running, photos: burst)
        } else {
            try shootAlone(stateFolder: stateFolder, startedAt: started)
        }
    }

    /// The running camera's socket went between two photos.
    private struct CameraNotRunning: Error {}

    /// When the photos fall due: the interval run's, the self-timer's, or a burst's.
    private var shotSchedule: ShotSchedule {
        ShotSchedule(intervalRun.map { .interval($0) } ?? selfTimer.map { .selfTimer($0) } ?? .burst(burst))
    }

    /// Calls `shoot` as each photo falls due (`ShotSchedule`: the camera's own rules).
    private func forEachShot(startedAt: Double, _ shoot: () throws -> Void) throws {
        var schedule = shotSchedule
        schedule.start(commandStartedAt: startedAt, now: monotonicSeconds())
        while let due = schedule.nextDue {
            countDown(to: due, schedule)
            guard schedule.take(at: monotonicSeconds()) else { continue }
            try shoot()
        }
        if schedule.missed > 0 {
            log("capture: \(schedule.missed) of the interval's photos missed: the one before took longer than the interval")
        }
    }

    /// Waits until `time` (monotonic seconds); with the self-timer, says each whole second
    /// left as the camera's countdown does.
    private func countDown(to time: Double, _ schedule: ShotSchedule) {
        var said: Int?
        while true {
            let now = monotonicSeconds(), left = time - now
            guard left > 0 else { return }
            if let countdown = schedule.countdown(at: now), countdown != said {
                log("capture: self-timer, \(countdown) s")
                said = countdown
            }
            // (To the next whole second left, or the time itself.)
            usleep(UInt32((left - (left.rounded(.up) - 1)) * 1_000_000) + 1)
        }
    }

    /// The running camera takes the photos: exposure options would change its settings under
    /// the photographer, so they are refused with the reason.
    private func askRunningCamera(_ connection: borrowing FileDescriptor, photos: Int) throws {
        guard iso == nil, shutter == nil, wb == nil, ev == nil else {
            throw CaptureFailure("""
                the camera is running and shoots with its own settings; change them on its screen or with \
                `reflex settings set`, or run reflex capture without --iso, --shutter, --wb and --ev
                """)
        }
        let plan = bracketPlan
        log("capture: asking the running camera for " + (plan.map { "a bracket of \($0.frames)" } ?? "\(photos) photo(s)"))
        let request = "capture \(photos) \(format?.rawValue ?? "settings")" + (plan.map { " bracket \($0.frames) \($0.stepThirds)" } ?? "")
        guard UnixSocket.writeLine(connection, request) else {
            throw CaptureFailure("the running camera closed the connection")
        }
        var failures = 0
        for _ in 0..<(plan?.frames ?? photos) {
            guard let line = UnixSocket.readLine(connection, milliseconds: Int32(CaptureService.patience * 1000) + 5000) else {
                throw CaptureFailure("the running camera did not answer")
            }
            if !report(line) { failures += 1 }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Nothing runs the camera: this command streams it, lets exposure settle and shoots.
    private func shootAlone(stateFolder: String, startedAt: Double) throws {
        let (calibration, note) = camera.calibration
        log(note)
        var settings = SettingsStore(folder: stateFolder).load().settings
        try apply(to: &settings)
        let card = output ?? "/media/card"
        // `-o DIR` is made if missing, as rpicam-still's would be; the card slot never is.
        if let output { try AtomicFile.createFolder(output) }
        let log = CaptureLog()
        // (A board of several lenses shoots with the one its 1x zoom picks: the wide.)
        let (lenses, lensNotes) = camera.sensor == .v4l2 && camera.camera == nil ? BoardFolder.lenses(in: camera.boardFolder) : ([], [])
        lensNotes.forEach { log.write($0) }
        let sensor = SensorPipeline(settings: settings, calibration: calibration, choice: camera.cameraChoice,
                                    lenses: lenses, log: log.write)
        let gps = settings.geotag ? GPSSetup.start(boardFolder: camera.boardFolder, geotag: true, log: log.write) : nil
        let (photos, _) = CameraWiring.photos(for: sensor, calibration: calibration, cardFolder: card,
                                              cardIsMountPoint: output == nil, stateFolder: stateFolder,
                                              software: "Reflex \(Reflex.version)",
                                              location: { gps?.fix(at: $0) },
                                              // (Alone there is no viewfinder to yield to: on a
                                              // busy machine a nice-19 thread would starve the
                                              // shot the user is waiting for.)
                                              priority: .ordinary, log: log.write)
        sensor.start()
        defer {
            sensor.stop()
            photos.stop()
            gps?.stop()
        }
        guard StreamSettling.wait(for: sensor.status) else {
            throw CaptureFailure("the camera does not stream: " + (log.lastLine ?? "no camera found"))
        }
        if let gps, case let status = gps.waitForFix(patience: Capture.fixPatience), status != .fix {
            ReflexSystem.log("capture: " + (status.refusal ?? "no GPS fix yet") + "; the photo carries no location")
        }
        // (A press waits for a slot while the sensor thread is held up, not once it stops.)
        let stoppedStreaming = { sensor.status.latestSensorReport().status != .streaming }
        if let plan = bracketPlan {
            guard let ticket = sensor.mailbox.requestRemoteCapture(at: monotonicSeconds(), format: nil, bracket: plan,
                                                                   waitingUpTo: CaptureService.pressPatience,
                                                                   giveUp: stoppedStreaming) else {
                throw CaptureFailure("the shutter is busy")
            }
            let results = photos.waitForResults(ticket: ticket, count: plan.frames, seconds: CaptureService.patience)
            let failures = results.filter { !report(CaptureService.reply($0)) }.count
            if results.count < plan.frames { log.write("capture: \(plan.frames - results.count) of the bracket's frames not taken") }
            if failures > 0 || results.count < plan.frames { throw ExitCode(1) }
            return
        }
        var tickets: [Int] = []
        // (The stream settles in the self-timer's countdown or an interval's first delay.)
        try forEachShot(startedAt: startedAt) {
            guard let ticket = sensor.mailbox.requestRemoteCapture(at: monotonicSeconds(), format: nil,
                                                                   waitingUpTo: CaptureService.pressPatience,
                                                                   giveUp: stoppedStreaming) else {
                throw CaptureFailure("the shutter is busy")
            }
            tickets.append(ticket)
        }
        var failures = 0
        for ticket in tickets {
            if !report(CaptureService.reply(photos.waitForResult(ticket: ticket, seconds: CaptureService.patience))) {
                failures += 1
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The options as settings: a manual value puts the camera in Pro.
    private func apply(to settings: inout CameraSettings) throws {
        if let format { settings.format = format }
        let manual: [(SettingsKey, String?)] = [(.iso, iso), (.shutter, shutter), (.whiteBalance, wb)]
        if manual.contains(where: { $0.1 != nil && $0.1 != "auto" }) { settings.setMode(.pro) }
        for (key, value) in manual + [(.exposureCompensation, ev)] {
            guard let value else { continue }
            do {
                try settings.set(key, from: value)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    /// Seconds a geotagged shot waits for a fix after the stream has settled.
    static let fixPatience = 5.0

    /// Prints one reply line; false for an error.
    private func report(_ line: String) -> Bool {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.first == "photo", fields.count >= 7 else {
            let why = fields.count > 1 ? fields[1] : line
            if json { print(JSONText.object([("error", .string(why))]).text) } else { log("capture: " + why) }
            return false
        }
        let paths = Array(fields[6...])
        if json {
            print(JSONText.object([
                ("number", .string(fields[1])), ("files", .array(paths.map { .string($0) })),
                ("frame", .number(Double(fields[2]) ?? 0)), ("framesLate", .number(Double(fields[3]) ?? 0)),
                ("exposureSeconds", .number(Double(fields[4]) ?? 0)), ("iso", .number(Double(fields[5]) ?? 0)),
            ]).text)
        } else {
            paths.forEach { print($0) }
        }
        return true
    }
}

extension CaptureFormat: ExpressibleByArgument {}
extension SelfTimerDelay: ExpressibleByArgument {}

/// Why `reflex capture` took no photo, said plainly.
struct CaptureFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The pipeline's log while `reflex capture` shoots alone: kept, and the last line shown if
/// the camera fails.
final class CaptureLog: Sendable {
    private let last = Mutex<String?>(nil)

    var write: @Sendable (String) -> Void {
        { line in
            self.last.withLock { $0 = line }
            if getenv("REFLEX_VERBOSE") != nil { log(line) }
        }
    }

    var lastLine: String? { last.withLock { $0 } }
}
