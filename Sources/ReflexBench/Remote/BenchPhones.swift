import ReflexCore
import ReflexHardware
import ReflexRemote
import ReflexRuntime
import ReflexSystem

/// Phones watching the live view while a bench runs the realtime loop (`bench frame
/// --remote-viewers N`, `bench remote`): the remote's live view fed the same sensor frames as
/// the viewfinder, its server on the loopback, each phone paired and watching over its own
/// WebSocket. What they cost the loop is the loop's figures beside a run without them.
final class BenchPhones: BenchCompanion {
    let liveView: LiveView
    let server: RemoteServer
    private let viewers: [LiveViewer]
    private var began = (time: 0.0, pictures: [Int]())

    init(count: Int, loop: FrameLoop) throws {
        liveView = LiveView(log: { print("  live view: \($0)") })
        guard liveView.start() else { throw BenchError("cannot start the live view's thread") }
        let shown = ShownLoop()
        shown.set(loop)
        let camera = CameraRemote(liveView: liveView, loop: { shown.current }, cardRoot: { nil }, movies: nil)
        let pairing = RemotePairingKeeper(file: nil, log: { _ in })
        server = try RemoteServer(host: "127.0.0.1", port: 0, camera: camera, pairing: pairing, pageFolder: "/nonexistent",
                                  log: { print("  remote: \($0)") })
        var viewers: [LiveViewer] = []
        for number in 0..<count {
            guard case .paired(let token) = pairing.pair(code: pairing.code) else { throw BenchError("a phone could not pair") }
            viewers.append(LiveViewer(port: server.port, token: token, number: number))
        }
        self.viewers = viewers
        for viewer in viewers where !viewer.start() { throw BenchError("cannot start a phone's thread") }
    }

    /// A sensor frame, as the sensor thread hands it to every sink.
    func deliver(_ frame: SensorFrame) { liveView.sink.deliver(frame) }

    /// The measured part starts: counts and latencies from here.
    func begin() {
        began = (monotonicSeconds(), viewers.map(\.picturesReceived))
        _ = server.site.liveLatencies.take()
    }

    /// Pictures a second each phone received since `begin`, and the time from the sensor's
    /// timestamp to the picture leaving the socket.
    func summary() -> String {
        let seconds = max(monotonicSeconds() - began.time, 1e-9)
        let rates = zip(viewers, began.pictures).map { Double($0.picturesReceived - $1) / seconds }
        let latencies = server.site.liveLatencies.take().sorted()
        let problems = viewers.compactMap(\.problem)
        func ms(_ fraction: Double) -> String {
            latencies.isEmpty ? "–" : Formatting.fixed(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))] * 1000, 1)
        }
        return "the remote: \(viewers.count) phone\(viewers.count == 1 ? "" : "s") watching: "
            + rates.map { Formatting.fixed($0, 1) }.joined(separator: ", ") + " pictures/s each (target ≥ 15, aim 30); "
            + "sensor to socket p50 \(ms(0.5)) ms, p99 \(ms(0.99)) ms over \(latencies.count) pictures"
            + (problems.isEmpty ? "" : "; problems: " + problems.joined(separator: "; "))
    }

    func stop() {
        viewers.forEach { $0.stop() }
        server.stop()
        liveView.stop()
    }
}
