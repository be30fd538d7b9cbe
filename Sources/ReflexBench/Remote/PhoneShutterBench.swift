import ReflexCore
import ReflexHardware
import ReflexRemote
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The shutter pressed from a phone: the camera as it runs (the simulated sensor, the zero-lag
/// ring, the realtime loop on the headless display, the photo thread, the remote's server),
/// a paired phone posting `action=shutter` over the loopback at random moments, and the frame
/// each photo holds against the frame under way when the phone sent its press (from the
/// frames' kernel timestamps, recorded as they came). The reference is what a shutter without
/// past frames would take: the first frame to start after the loop heard of the press.
struct PhoneShutterBench {
    let presses: Int
    let folder: String

    func run() throws {
        try AtomicFile.createFolder(folder + "/state")
        var settings = CameraSettings()
        settings.format = .jpeg
        let sensor = SensorPipeline(settings: settings, calibration: .simulated,
                                    choice: CameraChoice(source: .simulated(.absoluteExposure)), log: { _ in })
        let timeline = ShutterLagBench.Timeline()
        sensor.mailbox.attach(timeline)
        // Each photo ends in one line: "photo 12: frame 345 → RFLX0012.JPG" or "photo 12 not saved: …".
        let endings = Mutex<[String]>([])
        let (photos, _) = CameraWiring.photos(for: sensor, calibration: .simulated, cardFolder: folder, stateFolder: folder + "/state",
                                              software: "Reflex bench", log: { line in
            if line.hasPrefix("photo "), line.contains("→") || line.contains("not saved") { endings.withLock { $0.append(line) } }
        })
        let loop = try BurstBench.startLoop(sensor: sensor, settings: settings)
        sensor.start()
        let shown = ShownLoop()
        shown.set(loop)
        let camera = CameraRemote(liveView: LiveView(log: { _ in }), loop: { shown.current }, cardRoot: { nil }, movies: nil)
        let pairing = RemotePairingKeeper(file: nil, log: { _ in })
        let server = try RemoteServer(host: "127.0.0.1", port: 0, camera: camera, pairing: pairing, pageFolder: "/nonexistent",
                                      log: { print("  remote: \($0)") })
        defer {
            server.stop()
            loop.stop()
            sensor.stop()
            photos.stop()
        }
        guard case .paired(let token) = pairing.pair(code: pairing.code) else { throw BenchError("the phone could not pair") }
        let phone = try PhoneControls(port: server.port, token: token)
        usleep(1_000_000)
        srandom(11)  // the same moments each run
        var pressedAt: [Int64] = [], answers: [Double] = []
        for press in 0..<presses {
            // 120…250 ms after the last photo was saved: anywhere in a frame's period.
            usleep(UInt32(120_000 + random() % 130_000))
            let sent = monotonicSeconds()
            try phone.post("action=shutter&pressed=1")
            answers.append(monotonicSeconds() - sent)
            try phone.post("action=shutter&pressed=0")
            pressedAt.append(Int64(sent * 1e9))
            let deadline = monotonicSeconds() + 30
            while endings.withLock({ $0.count }) <= press && monotonicSeconds() < deadline { usleep(5_000) }
        }
        let lines = endings.withLock { $0 }
        var underWay = 0, late = 0, lagFrames = 0, nextFrameLag = 0, missing = 0
        for (index, press) in pressedAt.enumerated() {
            guard index < lines.count, let sequence = Self.frameNumber(lines[index]),
                  let lag = timeline.lag(press: press, sequence: UInt32(sequence)) else {
                missing += 1
                continue
            }
            if lag.frames == 0 { underWay += 1 } else { late += 1 }
            lagFrames += lag.frames
            nextFrameLag += lag.withoutRing ?? 0
        }
        let counted = Double(max(presses - missing, 1))
        let sortedAnswers = answers.sorted()
        func ms(_ fraction: Double) -> String {
            Formatting.fixed(sortedAnswers[min(sortedAnswers.count - 1, Int(Double(sortedAnswers.count) * fraction))] * 1000, 1)
        }
        print("The shutter from a phone: \(presses) presses posted over the loopback at random moments, through the realtime "
              + "loop to the simulated sensor (1280x720, 30 fps), each saved as a JPEG")
        print("  \(underWay) of \(presses) photos hold the frame under way when the phone sent the press; \(late) later, "
              + "\(missing) not saved; mean \(Formatting.fixed(Double(lagFrames) / counted, 2)) frames late; "
              + "the press answered in p50 \(ms(0.5)) ms, p99 \(ms(0.99)) ms")
        print("  reference, a shutter without past frames (the next frame to start): mean "
              + "\(Formatting.fixed(Double(nextFrameLag) / counted, 2)) frames late")
        print("  target: every photo the frame under way when the press arrives (0 frames late, as with the keys)")
    }

    /// The frame in "photo 12: frame 345 → RFLX0012.JPG"; nil for a photo not saved.
    static func frameNumber(_ line: String) -> Int? {
        let words = line.split(separator: " ")
        guard line.contains("→"), let mark = words.firstIndex(of: "frame"), words.count > mark + 1 else { return nil }
        return Int(words[mark + 1].filter(\.isNumber))
    }
}

/// A paired phone's controls: one kept-alive connection (closed with it) posting forms to
/// /api/control, each answer read whole before the next.
private final class PhoneControls {
    private let connection: FileDescriptor
    private let token: String

    init(port: Int, token: String) throws {
        self.token = token
        switch TCPConnection.connect(host: "127.0.0.1", port: UInt16(port), milliseconds: 5000) {
        case .failure(let why): throw BenchError("the phone cannot connect: \(why)")
        case .success(let connection): self.connection = connection
        }
    }

    func post(_ form: String) throws {
        let request = "POST /api/control HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: reflex_token=\(token)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n" + form
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { send(connection.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw BenchError("the phone's press was not sent") }
        let answer = try readAnswer()
        guard answer.hasPrefix("HTTP/1.1 200") else { throw BenchError("the camera refused the press: \(answer)") }
    }

    /// The answer's head and body (by its Content-Length), as text.
    private func readAnswer() throws -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func headEnd() -> Int? { received.indices.dropLast(3).first { received[$0..<($0 + 4)] == [13, 10, 13, 10] } }
        func bodyLength(_ head: String) -> Int {
            head.split(separator: "\r\n").compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].filter { $0 != " " })
            }.first ?? 0
        }
        while true {
            if let end = headEnd() {
                let head = String(decoding: received[..<end], as: UTF8.self)
                if received.count >= end + 4 + bodyLength(head) { return String(decoding: received, as: UTF8.self) }
            }
            var poll = pollfd(fd: connection.rawValue, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 10_000) > 0 else { throw BenchError("the camera did not answer the press") }
            let got = chunk.withUnsafeMutableBytes { recv(connection.rawValue, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { throw BenchError("the camera closed the phone's connection") }
            received += chunk[..<got]
        }
    }
}
