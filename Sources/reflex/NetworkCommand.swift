import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRemote
import ReflexRuntime
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The remote's own Wi-Fi network, as root, apart from the camera: started by
/// reflex-network.path when the camera asks for it (it makes /run/reflex/network-wanted), it
/// brings up hostapd and dnsmasq from the board's remote.conf and the passphrase the camera
/// made, says how it went in its state file, and takes the network down and ends when the
/// camera takes its request back or stops. So the camera, which reads what phones send it,
/// never holds the right to set up a radio; and what hostapd and dnsmasq are given is made
/// here from the board's file, never from the camera's words.
struct NetworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Run the remote's Wi-Fi network while the camera asks for it (reflex-network.service).")

    @OptionGroup var state: StateOptions

    @Option(help: "The board folder (default: /etc/reflex/board).")
    var board: String?

    @Option(help: "The camera's request: the network runs while this file exists.")
    var wanted = NetworkCommand.wantedFile

    @Option(name: .customLong("state-file"), help: "Where the network's state is written for the camera.")
    var stateFile = NetworkCommand.stateFile

    /// Where the camera asks (its runtime folder, gone when it stops) and reads the answer.
    static let wantedFile = "/run/reflex/network-wanted"
    static let stateFile = "/run/reflex-network/state"

    func run() throws {
        TerminationSignal.blockTerminationSignals()
        let stateFolder = StateFolder.resolve(flag: state.stateDirectory)
        let runFolder = String(stateFile[..<(stateFile.lastIndex(of: "/") ?? stateFile.startIndex)])
        guard let files = accessPointFiles(stateFolder: stateFolder) else { return waitForTheRequestToGo() }
        let point = AccessPoint(files: files, runFolder: runFolder, log: { log($0) })
        say(.starting)
        do {
            try point.start()
            say(.up(files.network.name))
        } catch {
            say(.failed(error.description))
        }
        var ended = false
        while access(wanted, F_OK) == 0 {
            if case .terminate = TerminationSignal.wait(seconds: 0.5) { break }
            if !ended, let why = point.check() {
                ended = true
                say(.failed(why))
            }
        }
        point.stop()
        unlink(stateFile)
        log("network: \(files.network.name) down (the camera no longer asks for it)")
    }

    /// The board's network and the camera's passphrase; nil (said in the state file) when
    /// there is none to make.
    private func accessPointFiles(stateFolder: String) -> AccessPointFiles? {
        let (remote, note) = BoardFolder.remote(in: BoardFolder.resolve(flag: board))
        log(note)
        guard let remote, remote.way == .accessPoint else {
            say(.failed("Wi-Fi: this board's remote.conf makes no network of its own"))
            return nil
        }
        let file = stateFolder + "/remote-network"
        guard let bytes = try? AtomicFile.read(file, limit: 4096),
              case .success(let values) = KeyValueText.parse(String(decoding: bytes, as: UTF8.self)),
              let passphrase = values["passphrase"], WiFiNetwork.isValidPassphrase(passphrase) else {
            say(.failed("Wi-Fi: the camera has made no passphrase yet (\(file))"))
            return nil
        }
        let name = WiFiNetwork.name(machineID: SmallFile.text("/etc/machine-id") ?? "")
        return AccessPointFiles(board: remote, network: WiFiNetwork(name: name, passphrase: passphrase))
    }

    private func waitForTheRequestToGo() {
        while access(wanted, F_OK) == 0 {
            if case .terminate = TerminationSignal.wait(seconds: 0.5) { break }
        }
        unlink(stateFile)
    }

    /// The state for the camera, whole or not at all (readable by it: the folder is 0755).
    private func say(_ state: RootServiceState) {
        log("network: \(state)")
        do {
            try AtomicFile.write(Array((state.description + "\n").utf8), to: stateFile, permissions: 0o644)
        } catch {
            log("network: cannot write \(stateFile): \(error)")
        }
    }
}
