import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Lets another program on the camera ask the running camera for photos (`reflex capture`
/// while the camera runs: the camera owns the sensor, so the shot must be its own). A local
/// socket in the state folder; one request line, one reply line a photo:
///
///     capture <count> <jpeg|raw|raw+jpeg|settings> [bracket <frames> <step in thirds>]
///     photo<TAB>100REFLX/RFLX0001<TAB>frame<TAB>frames late<TAB>exposure s<TAB>ISO<TAB>path…
///     error<TAB>why
///
/// Its thread is an ordinary one; presses go through the mailbox's channel for other programs.
public final class CaptureService: @unchecked Sendable {
    public static let socketName = "capture.sock"
    /// Photos a request may ask for.
    public static let largestBurst = 100
    /// How long a photo may take to be saved before the reply gives up on it. (The photo
    /// thread runs at nice 19: on a busy machine a save waits for every other thread, and
    /// 60 s was seen to pass with the photo saved after. The photo is never lost; this only
    /// says when the asking program hears "not saved in time".)
    public static let patience = 300.0
    /// How long a press waits for a free slot in the mailbox before "the shutter is busy"
    /// (`ControlMailbox.requestRemoteCapture(waitingUpTo:)`): the sensor thread held up that
    /// long is a camera in trouble, not a busy one.
    public static let pressPatience = 30.0

    private let path: String
    private let mailbox: ControlMailbox
    private let photos: PhotoPipeline
    private let log: SensorPipeline.Log
    private let thread = WorkerThread(name: "reflex-capture")

    public init(stateFolder: String, mailbox: ControlMailbox, photos: PhotoPipeline, log: @escaping SensorPipeline.Log) {
        path = stateFolder + "/" + CaptureService.socketName
        self.mailbox = mailbox
        self.photos = photos
        self.log = log
    }

    public func start() { thread.start { self.serve() } }

    public func stop() { thread.stop() }

    private func serve() {
        let listening: FileDescriptor
        do {
            listening = try UnixSocket.listen(at: path)
        } catch {
            log("capture: other programs cannot ask for photos (\(error))")
            return
        }
        defer { unlinkSocket() }
        while !thread.isStopping {
            guard let connection = UnixSocket.accept(listening, milliseconds: 500) else { continue }
            answer(connection)
        }
    }

    private func unlinkSocket() { _ = path.withCString { unlink($0) } }

    private func answer(_ connection: borrowing FileDescriptor) {
        guard let line = UnixSocket.readLine(connection, milliseconds: 2000),
              let request = CaptureService.parse(line) else {
            UnixSocket.writeLine(connection, "error\tnot a capture request (capture <count> <format|settings>)")
            return
        }
        if let plan = request.bracket {
            // One press, the whole bracket: a reply a frame.
            guard let ticket = mailbox.requestRemoteCapture(at: monotonicSeconds(), format: request.format, bracket: plan,
                                                           waitingUpTo: CaptureService.pressPatience, giveUp: { thread.isStopping }) else {
                UnixSocket.writeLine(connection, "error\tthe shutter is busy")
                return
            }
            log("capture: a bracket of \(plan.frames) asked for by another program")
            let results = photos.waitForResults(ticket: ticket, count: plan.frames, seconds: CaptureService.patience) { thread.isStopping }
            for index in 0..<plan.frames {
                let reply = index < results.count ? CaptureService.reply(results[index])
                    : "error\tthe bracket's frame was not taken (its exposure could not be kept)"
                guard UnixSocket.writeLine(connection, reply) else { return }
            }
            return
        }
        var tickets: [Int] = []
        for index in 0..<request.count {
            // A burst's presses at the camera's burst rate, each the frame under way then.
            if index > 0 { _ = thread.pause(seconds: BurstTimer().interval) }
            guard let ticket = mailbox.requestRemoteCapture(at: monotonicSeconds(), format: request.format,
                                                            waitingUpTo: CaptureService.pressPatience,
                                                            giveUp: { thread.isStopping }) else {
                UnixSocket.writeLine(connection, "error\tthe shutter is busy: \(tickets.count) of \(request.count) taken")
                break
            }
            tickets.append(ticket)
        }
        log("capture: \(tickets.count) photo(s) asked for by another program")
        for ticket in tickets {
            let result = photos.waitForResult(ticket: ticket, seconds: CaptureService.patience) { thread.isStopping }
            guard UnixSocket.writeLine(connection, CaptureService.reply(result)) else { return }
        }
    }

    /// "capture 3 raw+jpeg" → 3 photos, that format (nil: the camera's own setting);
    /// "capture 1 raw bracket 5 3" → a bracket of 5 frames a stop apart.
    static func parse(_ line: String) -> (count: Int, format: CaptureFormat?, bracket: BracketPlan?)? {
        let words = line.split(separator: " ")
        guard words.count == 3 || words.count == 6, words[0] == "capture", let count = Int(words[1]),
              (1...largestBurst).contains(count) else {
            return nil
        }
        var bracket: BracketPlan?
        if words.count == 6 {
            guard words[3] == "bracket", count == 1, let frames = Int(words[4]), let step = Int(words[5]),
                  let plan = BracketPlan(frames: frames, stepThirds: step) else { return nil }
            bracket = plan
        }
        if words[2] == "settings" { return (count, nil, bracket) }
        guard let format = CaptureFormat(rawValue: String(words[2])) else { return nil }
        return (count, format, bracket)
    }

    public static func reply(_ result: PhotoResult?) -> String {
        guard let result else { return "error\tthe photo was not saved in time" }
        if let error = result.error { return "error\t" + error }
        guard let number = result.number else { return "error\tthe photo has no number" }
        return (["photo", number.description, String(result.sequence), String(result.framesLate),
                 String(result.exposureSeconds), String(result.iso)] + result.paths).joined(separator: "\t")
    }
}
