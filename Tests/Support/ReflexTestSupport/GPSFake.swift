import Foundation

/// A real gpsd for a test: `gpsfake` replaying one of the repository's NMEA logs into a gpsd
/// of its own on `port` (or a gpsd with no receiver at all), in a process group of its own so that
/// `stop` ends gpsfake and its gpsd together, at once — as gpsd dying would.
public final class GPSFake {
    public let port: UInt16
    private var process = Process()
    /// gpsfake's own TMPDIR, for its control socket: gpsfake names the socket after its pid
    /// and a killed gpsfake leaves it behind, so in the shared /tmp a later gpsfake given a
    /// reused pid finds a stale socket, takes it for gpsd's, and never hands gpsd the log.
    private let scratch: URL

    /// `log` (a name in Tests/Data/nmea) fed a sentence every `cycle` seconds, again and
    /// again unless `once`; no log: a gpsd without a receiver. Foundation starts the child
    /// in a process group of its own (not through setsid(1), which would fork and leave the
    /// group behind), so gpsfake's gpsd shares the group `stop` ends.
    public init(log: String?, port: UInt16, cycle: Double = 0.05, once: Bool = false) throws {
        self.port = port
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reflex-gpsfake-\(port)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // gpsfake connects to gpsd's control socket as soon as the file exists, which on a
        // busy machine can be before gpsd listens on it: the receiver is then silently never
        // added. That is gpsfake's race, not gpsd's, so a second start is fair.
        for attempt in 1...2 {
            try launch(log: log, cycle: cycle, once: once)
            // As a board's gpsd is, listening before the camera asks (gpsfake takes a moment).
            // (A minute for each: a safety net for a busy host, not a figure.)
            guard Self.waitUntilListening(port: port, seconds: 60) else {
                stop()
                throw GPSFakeFailure(description: "gpsd did not listen on port \(port) within 60 s")
            }
            // gpsfake hands gpsd the receiver a moment after gpsd listens (longer on a busy
            // machine): a board's gpsd has its receiver from boot.
            if log == nil || waitForReceiver(seconds: attempt == 1 ? 30 : 60) { return }
            stop()
        }
        throw GPSFakeFailure(description: "gpsfake gave gpsd on port \(port) no receiver, twice")
    }

    private func launch(log: String?, cycle: Double, once: Bool) throws {
        process = Process()
        if let log {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
            process.arguments = ["-q", "-P", "\(port)", "-c", "\(cycle)"] + (once ? ["-1"] : []) + [Self.path(log)]
        } else {
            // gpsd refuses to start with neither a device nor a control socket.
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
            process.arguments = ["-N", "-n", "-S", "\(port)", "-F", scratch.appendingPathComponent("gpsd.sock").path]
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin:" + (environment["PATH"] ?? "")
        environment["TMPDIR"] = scratch.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        precondition(getpgid(process.processIdentifier) == process.processIdentifier,
                     "gpsfake must lead a process group of its own to be stopped with its gpsd")
    }

    /// Waits until gpsd says it has a receiver; false after `seconds`.
    public func waitForReceiver(seconds: Double = 60) -> Bool {
        waitForReport(seconds: seconds) { $0.contains(#""class":"DEVICES","devices":[{"#) || $0.contains(#""activated":""#) }
    }

    /// Waits until gpsd reports a fix (a TPV of mode 2 or 3) to a client of its own, as a
    /// board's gpsd has one before the photographer shoots; false after `seconds`.
    public func waitForFix(seconds: Double = 60) -> Bool {
        waitForReport(seconds: seconds) {
            $0.contains(#""class":"TPV""#) && ($0.contains(#""mode":2"#) || $0.contains(#""mode":3"#))
        }
    }

    /// Watches gpsd's reports until what came satisfies `found`; false after `seconds`.
    private func waitForReport(seconds: Double, until found: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        let socket = Self.connected(port: port)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        let watch = Array(#"?WATCH={"enable":true,"json":true}"#.utf8) + [10]
        guard write(socket, watch, watch.count) == watch.count else { return false }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { return false }
            received += buffer[..<count]
            if found(String(decoding: received, as: UTF8.self)) { return true }
            if received.count > 1 << 20 { received.removeFirst(received.count / 2) }
        }
        return false
    }

    /// A TCP connection to the loopback at `port`, or -1.
    private static func connected(port: UInt16) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if connected { return socket }
        close(socket)
        return -1
    }

    private static func waitUntilListening(port: UInt16, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let socket = connected(port: port)
            if socket >= 0 {
                close(socket)
                return true
            }
            usleep(50_000)
        }
        return false
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    public static func path(_ log: String) -> String {
        // (Tests/Support/ReflexTestSupport/ → Tests/Data/nmea.)
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/nmea/\(log)").path
    }

    /// Ends gpsfake and its gpsd (the whole group), and waits for them.
    public func stop() {
        guard process.isRunning else { return }
        kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every position the log states (GGA, RMC and GLL sentences, valid or not): a fix the
    /// camera reports must be one of these.
    public static func positions(in log: String) throws -> [(latitude: Double, longitude: Double)] {
        let text = try String(contentsOfFile: path(log), encoding: .isoLatin1)
        var found: [(Double, Double)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let kind = fields.first?.suffix(3) else { continue }
            let start = kind == "GGA" ? 2 : kind == "RMC" ? 3 : kind == "GLL" ? 1 : -1
            guard start > 0, fields.count > start + 3,
                  let latitude = degrees(fields[start], fields[start + 1], degreeDigits: 2),
                  let longitude = degrees(fields[start + 2], fields[start + 3], degreeDigits: 3) else { continue }
            found.append((latitude, longitude))
        }
        return found
    }

    /// NMEA's "ddmm.mmmm" and hemisphere as signed degrees.
    private static func degrees(_ value: String, _ hemisphere: String, degreeDigits: Int) -> Double? {
        guard value.count > degreeDigits, let whole = Double(value.prefix(degreeDigits)),
              let minutes = Double(value.dropFirst(degreeDigits)) else { return nil }
        let magnitude = whole + minutes / 60
        return hemisphere == "S" || hemisphere == "W" ? -magnitude : magnitude
    }
}

public struct GPSFakeFailure: Error, CustomStringConvertible {
    public let description: String
}
