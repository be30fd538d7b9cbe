import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexRemote
import ReflexRuntime
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The remote as the quick menu switches it, on a thread of its own (background priority):
/// On brings up the way the board reaches a phone and then the server; Off stops the server
/// and takes the network down. The board's own Wi-Fi network is asked of its service
/// (`reflex network`, root, started by reflex-network.path when `networkWanted` appears; its
/// answer in `networkState`): this process never holds the right to set up a radio. It tells
/// the screen what to show (the network, the page, their QR codes, the pairing code, a lock),
/// once a second or as soon as something changes.
final class RemoteKeeper: @unchecked Sendable {
    let remoteSwitch: RemoteSwitch
    private let way: RemoteWay
    private let stack: RemoteStack?
    private let status: StatusBoard
    private let stateFolder: String
    /// The request the network's service answers, and where it answers.
    private let networkWanted: String
    private let networkState: String
    private let log: @Sendable (String) -> Void
    private let thread = WorkerThread(name: "reflex-network", priority: .background)

    // The thread's own.
    private var server: RemoteServer?
    /// The address it serves on.
    private var servedHost = ""
    /// The network asked of its service, since when (nil: not asked), and its name once up.
    private var networkAskedAt: Double?
    private var network: WiFiNetwork?
    private var networkUp = false
    /// The reason it failed while On (tried again only after Off and On).
    private var failure: String?
    private var forgotten = 0
    private var posted: RemoteReport?
    private var codes: [String: QRCode] = [:]

    /// `stack`: nil when this camera cannot serve (the reason is `way`'s `.none`).
    init(way: RemoteWay, stack: RemoteStack?, on: Bool, status: StatusBoard, stateFolder: String, networkWanted: String,
         networkState: String, log: @escaping @Sendable (String) -> Void) {
        (self.way, self.stack, self.status, self.stateFolder, self.log) = (way, stack, status, stateFolder, log)
        (self.networkWanted, self.networkState) = (networkWanted, networkState)
        remoteSwitch = RemoteSwitch(on: on)
    }

    /// How long the network's service may take to answer and bring the network up (a slow
    /// board under emulation is slow).
    static let networkPatience = 90.0

    func start() -> Bool { thread.start { self.run() } }

    /// Stops the server and the network (at most a second for the thread to notice).
    func stop() {
        remoteSwitch.signal.signal()
        thread.stop()
        stack?.liveView.stop()
    }

    private func run() {
        forgotten = remoteSwitch.forgetCount
        while !thread.isStopping {
            follow()
            remoteSwitch.signal.wait(milliseconds: 1000)
        }
        turnOff()
        post()
    }

    /// One look at the switch: forget, turn on or off, watch the network.
    private func follow() {
        if remoteSwitch.forgetCount != forgotten {
            forgotten = remoteSwitch.forgetCount
            stack?.pairing.forgetEveryPhone()
            log("remote: every paired phone forgotten; a new pairing code")
        }
        if remoteSwitch.isOn {
            if server == nil && failure == nil { turnOn() }
            if networkAskedAt != nil { followNetwork() }
        } else {
            failure = nil
            if server != nil || networkAskedAt != nil { turnOff() }
        }
        post()
    }

    private func turnOn() {
        guard let stack else { return }
        do {
            switch way {
            case .none: return
            case .address(let host, let port): try serve(stack, host: host, port: port)
            case .board(let board) where board.way == .interface:
                // (Until the system gives the interface an address, the screen says so; looked at each second.)
                guard let address = InterfaceAddress.ipv4(of: board.interface) else { return }
                try serve(stack, host: address, port: board.port)
            case .board(let board):
                // Served once the network's service says the network is up (followNetwork).
                if networkUp {
                    try serve(stack, host: board.address.host, port: board.port)
                } else if networkAskedAt == nil {
                    askForNetwork()
                }
            }
        } catch {
            fail("Remote: cannot serve its page (\(error))")
        }
    }

    /// The passphrase made (once) where the service reads it, and the request made.
    private func askForNetwork() {
        network = WiFiNetworkKeeper.network(file: stateFolder + "/remote-network", machineID: machineID(), log: log)
        if let why = RequestFile(networkWanted).make() {
            fail("Wi-Fi: cannot ask for the network (\(networkWanted): \(why))")
            return
        }
        networkAskedAt = monotonicSeconds()
        log("remote: asked for the network \(network?.name ?? "") (\(networkWanted))")
    }

    /// The service's answer: up (then the page is served), failed, or none in time.
    private func followNetwork() {
        let answer = SmallFile.text(networkState).flatMap(RootServiceState.init(line:))
        switch answer {
        case .up:
            guard !networkUp else { return }
            networkUp = true
            turnOn()
        case .failed(let why):
            fail(why)
        case .starting, nil:
            if networkUp {
                fail("Wi-Fi: the network went down")
            } else if let asked = networkAskedAt, monotonicSeconds() - asked > Self.networkPatience {
                fail("Wi-Fi: the network's service did not answer (reflex-network.path)")
            }
        }
    }

    private func serve(_ stack: RemoteStack, host: String, port: Int) throws {
        let started = try stack.serve(host: host, port: port, log: log)
        (server, servedHost) = (started, host)
        log("remote: serving \(pageAddress(host: host, port: started.port)) (page \(stack.pageFolder)); "
            + "a phone pairs with the code \(stack.pairing.code)")
    }

    private func fail(_ reason: String) {
        log("remote: \(reason); off until turned on again")
        failure = reason
        turnOff()
    }

    private func turnOff() {
        if let server {
            server.stop()
            log("remote: stopped serving")
        }
        server = nil
        if networkAskedAt != nil {
            RequestFile(networkWanted).withdraw()
            log("remote: the network \(network?.name ?? "") no longer asked for")
        }
        (networkAskedAt, networkUp) = (nil, false)
    }

    // MARK: what the screen shows

    private func post() {
        let report = self.report()
        guard report != posted else { return }
        // (Each pairing draws a new code: the log says it, as the screen does.)
        if let code = report.pairingCode, let before = posted?.pairingCode, code != before {
            log("remote: a phone paired or every phone was forgotten; the pairing code is now \(code)")
        }
        posted = report
        status.postRemote(report)
    }

    private func report() -> RemoteReport {
        if case .none(let reason) = way { return RemoteReport(state: .unavailable(reason)) }
        guard remoteSwitch.isOn && !thread.isStopping else { return RemoteReport(state: .off) }
        if let failure { return RemoteReport(state: .failed(failure)) }
        guard let server, let stack else {
            var waiting = RemoteReport(state: .starting)
            if case .board(let board) = way, board.way == .interface {
                waiting.state = .failed("Remote: waiting for an address on \(board.interface)")
            }
            return waiting
        }
        var report = RemoteReport(state: .serving)
        let page = pageAddress(host: servedHost, port: server.port)
        let code = stack.pairing.code
        report.pageAddress = page
        report.pairingCode = code
        report.pageCode = qrCode(RemoteReport.pairingAddress(page: page, code: code))
        report.lockedSeconds = stack.pairing.lockedSeconds
        report.phones = stack.liveView.watchers
        if networkUp, let network {
            report.network = network
            report.joinCode = qrCode(network.joinText)
        }
        return report
    }

    /// Made once for each text (the codes change only with the pairing code).
    private func qrCode(_ text: String) -> QRCode? {
        if let made = codes[text] { return made }
        if codes.count > 8 { codes = [:] }
        let made = QREncoder.encode(text)
        codes[text] = made
        return made
    }

    private func pageAddress(host: String, port: Int) -> String {
        "http://\(host)" + (port == 80 ? "" : ":\(port)") + "/"
    }

    private func machineID() -> String { SmallFile.text("/etc/machine-id") ?? "" }
}
