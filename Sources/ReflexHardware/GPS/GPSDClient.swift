import ReflexCore
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The camera's side of gpsd's JSON protocol (https://gpsd.gitlab.io/gpsd/gpsd_json.html),
/// on a background thread of its own: while geotag is on it connects, asks for reports
/// (`?WATCH={"enable":true,"json":true}`), keeps the newest fixes with when they came, and
/// says what it is doing (`GPSStatus`); when gpsd is not there or goes away it tries again,
/// waiting longer each time (up to `longestBackoff`). While geotag is off it holds no
/// connection: nothing asks where the camera is.
///
/// No libgps: the protocol is lines of JSON over TCP, which a few lines read; libgps would
/// tie the camera to the board's gpsd version (its C structures change between releases)
/// and still need the same reconnecting around it.
///
/// The realtime loop only stores a flag and reads an atomic; the photo thread asks for the
/// fix at a press under a lock no one holds for long.
public final class GPSDClient: @unchecked Sendable {
    public let address: GPSDAddress
    /// A connection attempt's limit, and the waits between attempts.
    static let connectMilliseconds: Int32 = 2000
    static let firstBackoff = 0.5, longestBackoff = 8.0

    private let thread = WorkerThread(name: "reflex-gps", priority: .background)
    private let enabled = Atomic<Bool>(false)
    private let current = Atomic<UInt8>(GPSStatus.off.rawValue)
    private let history = Mutex(GPSFixHistory())
    private let post: @Sendable (GPSStatus) -> Void
    private let log: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double

    /// `post` hears each change of status (from the client's thread).
    public init(address: GPSDAddress, post: @escaping @Sendable (GPSStatus) -> Void = { _ in },
                log: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> Double = { monotonicSeconds() }) {
        (self.address, self.post, self.log, self.clock) = (address, post, log, clock)
    }

    public func start() -> Bool {
        thread.start { [self] in run() }
    }

    public func stop() { thread.stop() }

    /// Geotag on or off (from any thread; never waits).
    public func setEnabled(_ on: Bool) {
        guard enabled.exchange(on, ordering: .acquiringAndReleasing) != on else { return }
        thread.wake()
    }

    public var status: GPSStatus { GPSStatus(rawValue: current.load(ordering: .acquiring)) ?? .off }

    /// Blocks up to `patience` seconds for a fix, as a camera just switched on waits for one
    /// before a geotagged shot, or until gpsd refuses; the status then.
    public func waitForFix(patience: Double) -> GPSStatus {
        let deadline = monotonicSeconds() + patience
        while monotonicSeconds() < deadline, status != .fix, status.refusal == nil { usleep(50_000) }
        return status
    }

    /// The fix that held at `time` (monotonic seconds), nil when there was none that fresh.
    public func fix(at time: Double) -> GPSFix? {
        history.withLock { $0.fix(at: time) }
    }

    // MARK: the thread

    private func run() {
        var backoff = GPSDClient.firstBackoff
        while !thread.isStopping {
            guard enabled.load(ordering: .acquiring) else {
                set(.off)
                thread.waitForWake()
                thread.drainWake()
                continue
            }
            if status == .off { set(.connecting) }
            switch TCPConnection.connect(host: address.host, port: address.port, milliseconds: GPSDClient.connectMilliseconds) {
            case .failure(let failure):
                if status != .serviceNotRunning { log("gps: no gpsd at \(address) (\(failure)); trying again") }
                lose(.serviceNotRunning)
                _ = thread.pause(seconds: backoff)
                backoff = min(backoff * 2, GPSDClient.longestBackoff)
            case .success(let socket):
                backoff = GPSDClient.firstBackoff
                log("gps: connected to gpsd at \(address)")
                let ended = session(socket)
                lose(ended)
            }
        }
        set(.off)
    }

    /// One connection, until gpsd goes, geotag is turned off or the thread stops; the status
    /// to leave behind.
    private func session(_ socket: borrowing FileDescriptor) -> GPSStatus {
        guard UnixSocket.writeLine(socket, #"?WATCH={"enable":true,"json":true}"#) else { return .serviceNotRunning }
        var lines = LineBuffer()
        var receivers: Int?
        var dilution: Double?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !thread.isStopping && enabled.load(ordering: .acquiring) {
            var polled = [pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = retryingOnInterrupt { poll(&polled, 2, 1000) }
            if polled[1].revents != 0 { thread.drainWake() }
            // A fix that stopped coming is no fix (gpsd still there, the receiver silent).
            if status == .fix && fix(at: clock()) == nil { set(.searching) }
            guard polled[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(socket.rawValue, $0.baseAddress!, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                log("gps: gpsd at \(address) closed the connection; trying again")
                return .serviceNotRunning
            }
            let received = buffer.withUnsafeBytes { lines.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for line in received {
                guard let message = GPSDMessage.parse(line) else { continue }
                switch message {
                case .devices(let count):
                    if receivers != count { log("gps: gpsd has \(count == 0 ? "no receiver" : "\(count) receiver(s)")") }
                    receivers = count
                    if count == 0 { lose(.noReceiver) } else if status != .fix { set(.searching) }
                case .device(let active):
                    // A receiver came or went: ask for the list again to know how many are left.
                    if !active { _ = UnixSocket.writeLine(socket, "?DEVICES;") }
                    if active, status == .noReceiver || status == .connecting { set(.searching) }
                case .position(let fix):
                    var stated = fix
                    stated?.dilution = dilution
                    let now = clock()
                    history.withLock { $0.record(stated, at: now) }
                    set(fix == nil ? (receivers == 0 ? .noReceiver : .searching) : .fix)
                case .sky(let hdop):
                    dilution = hdop
                case .error(let text):
                    log("gps: gpsd says: \(text)")
                case .other:
                    break
                }
            }
        }
        return .off
    }

    /// No fix from now on, with this status.
    private func lose(_ status: GPSStatus) {
        let now = clock()
        history.withLock { $0.record(nil, at: now) }
        set(status)
    }

    private func set(_ status: GPSStatus) {
        guard current.exchange(status.rawValue, ordering: .acquiringAndReleasing) != status.rawValue else { return }
        post(status)
    }
}
