import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The camera's own Wi-Fi network, made by Debian's hostapd (the radio, WPA2/WPA3) and
/// dnsmasq (an address for each phone), both run by the camera and stopped with it: Off
/// leaves no radio up and no program running. Needs CAP_NET_ADMIN (the board's drop-in gives
/// the sealed service it). Used from one thread, the remote's keeper's.
public final class AccessPoint {
    /// Why the network could not come up, as the screen says it.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A program the network runs, and the name its lines go to the log under.
    private final class Program {
        let name: String
        let running: ChildProcess.Running
        init(name: String, running: consuming ChildProcess.Running) {
            self.name = name
            self.running = running
        }
    }

    public let files: AccessPointFiles
    private let runFolder: String
    private let log: @Sendable (String) -> Void
    private var programs: [Program] = []

    /// How long hostapd may take to bring the radio up (a slow board under emulation is slow).
    public static let startPatience = 30.0

    /// `runFolder`: where hostapd's configuration (it holds the passphrase: readable by the
    /// camera alone) and dnsmasq's leases go, a runtime folder (/run/reflex).
    public init(files: AccessPointFiles, runFolder: String, log: @escaping @Sendable (String) -> Void) {
        (self.files, self.runFolder, self.log) = (files, runFolder, log)
    }

    private var interface: String { files.board.interface }

    /// Brings the network up: the camera's address on the interface, hostapd until it says
    /// the network is up, then dnsmasq. Anything left half up is taken down again.
    public func start() throws(Failure) {
        guard access("/sys/class/net/" + interface, F_OK) == 0 else {
            throw Failure(description: "No Wi-Fi: this board's \(interface) is missing")
        }
        do {
            try startPrograms()
        } catch {
            stop()
            throw error
        }
    }

    private func startPrograms() throws(Failure) {
        try run(["ip", "address", "flush", "dev", interface])
        try run(["ip", "address", "add", files.board.address.description, "dev", interface])
        try writeConfiguration()
        let hostapd = try launch("hostapd", [runFolder + "/hostapd.conf"])
        var enabled = false, ended = false
        let deadline = monotonicSeconds() + Self.startPatience
        while !enabled && !ended && monotonicSeconds() < deadline {
            ended = hostapd.running.readLines(until: min(deadline, monotonicSeconds() + 0.5)) { line in
                log("remote: hostapd: \(line)")
                enabled = enabled || line.contains("AP-ENABLED")
                return !enabled
            }
        }
        guard enabled else {
            throw Failure(description: ended ? "Wi-Fi: hostapd stopped (see the log)" : "Wi-Fi: the network did not come up")
        }
        _ = try launch("dnsmasq", files.dnsmasqArguments(runFolder: runFolder))
        log("remote: network \(files.network.name) up on \(interface) at \(files.board.address)")
    }

    /// Passes on what the programs said; nil while they all run, else which one ended.
    public func check() -> String? {
        var ended: String?
        for program in programs {
            program.running.readLines(until: monotonicSeconds() + 0.02) { line in
                log("remote: \(program.name): \(line)")
                return true
            }
            if ended == nil, let status = program.running.hasEnded() {
                ended = "Wi-Fi: \(program.name) stopped (status \(status >> 8 & 0xFF))"
            }
        }
        return ended
    }

    /// Stops the programs, takes the address off and the interface down, and removes the
    /// configuration (its passphrase).
    public func stop() {
        for program in programs.reversed() where program.running.stop() == nil {
            log("remote: \(program.name) (process \(program.running.pid)) could not be stopped")
        }
        programs = []
        _ = try? run(["ip", "address", "flush", "dev", interface])
        _ = try? run(["ip", "link", "set", "dev", interface, "down"])
        unlink(runFolder + "/hostapd.conf")
    }

    private func writeConfiguration() throws(Failure) {
        mkdir(runFolder, 0o700)
        let path = runFolder + "/hostapd.conf"
        let bytes = Array(files.hostapdConfiguration.utf8)
        do {
            let file = try FileDescriptor(opening: path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
            try file.writeAll(bytes, count: bytes.count, path: path)
        } catch {
            throw Failure(description: "Wi-Fi: cannot write \(path): \(error)")
        }
    }

    private func launch(_ name: String, _ arguments: [String]) throws(Failure) -> Program {
        do {
            let program = Program(name: name, running: try ChildProcess.start([name] + arguments))
            programs.append(program)
            return program
        } catch {
            throw Failure(description: "Wi-Fi: cannot start \(name) (is it installed?)")
        }
    }

    /// `ip` to its end; its words in the failure when it fails.
    private func run(_ arguments: [String]) throws(Failure) {
        let result: (status: Int32?, output: String)
        do {
            result = try ChildProcess.run(arguments, timeout: 20)
        } catch {
            throw Failure(description: "Wi-Fi: cannot run ip (is iproute2 installed?)")
        }
        guard result.status == 0 else {
            let said = result.output.split(separator: "\n").last.map(String.init) ?? "no answer"
            throw Failure(description: "Wi-Fi: \(arguments.joined(separator: " ")): \(said)")
        }
    }
}
