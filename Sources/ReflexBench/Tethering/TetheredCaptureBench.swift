import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A computer's InitiateCapture to the photo on the computer: the camera as it runs in
/// Tethered mode (the simulated sensor, the zero-lag ring, the realtime loop on the headless
/// display, the photo thread, `CameraTether` and its PTP threads on dummy_hcd's controller),
/// the computer's side through usbdevfs: the command, the camera's ObjectAdded and
/// CaptureComplete on the interrupt pipe, then GetObject of the JPEG. Beside it, in the same
/// run: when the camera's photo thread had the file on the card, and the same file fetched again.
struct TetheredCaptureBench {
    let captures: Int
    let controller: String
    let folder: String

    /// One capture's moments (monotonic seconds) and its file.
    private struct Capture {
        var sent = 0.0, saved = 0.0, announced = 0.0, received = 0.0, fetchedAgain = 0.0
        var bytes = 0
    }

    func run() throws {
        let card = folder + "/card"
        try AtomicFile.createFolder(folder + "/state")
        try AtomicFile.createFolder(card)
        var settings = CameraSettings()
        (settings.format, settings.usb) = (.jpeg, .tethered)
        let sensor = SensorPipeline(settings: settings, calibration: .simulated,
                                    choice: CameraChoice(source: .simulated(.absoluteExposure)), log: { _ in })
        // Each photo ends in one line, "photo 12: frame 345 → RFLX0012.JPG", written just after
        // the file is on the card and the camera's report sent (a moment late, if anything).
        let savedAt = Mutex<[Double]>([])
        let (photos, _) = CameraWiring.photos(for: sensor, calibration: .simulated, cardFolder: card, stateFolder: folder + "/state",
                                              software: "Reflex bench", log: { line in
            if line.hasPrefix("photo "), line.contains("→") { savedAt.withLock { $0.append(monotonicSeconds()) } }
        })
        let loop = try BurstBench.startLoop(sensor: sensor, settings: settings)
        let shown = ShownLoop()
        shown.set(loop)
        let status = sensor.status
        let tether = CameraTether(identity: USBGadgetIdentity(board: "bench", version: "bench", machineID: "0"), version: "bench",
                                  fNumber: nil, settings: settings, usb: USBSwitch(.tethered),
                                  sensor: { status.latestSensorReport() }, loop: { shown.current }, cardRoot: { card })
        let work = folder
        let (gadget, host) = try USBBench.attach {
            try BenchGadget(card: tether, controller: controller, work: work, changed: status.photosChanged)
        }
        defer {
            gadget.stop()
            loop.stop()
            sensor.stop()
            photos.stop()
        }
        guard sensor.start() else { throw BenchError("cannot start the sensor's thread") }
        let ptp = PTPInitiator(pipes: host)
        try ptp.run(.openSession, [1])
        defer { _ = try? ptp.run(.closeSession) }
        while try host.event(within: 300) != nil {}  // what came before (the card, the settings)
        usleep(1_000_000)  // the sensor streaming and the ring filled, as a camera switched on a while ago
        srandom(13)  // the same moments each run
        var done: [Capture] = []
        for number in 0..<captures {
            usleep(UInt32(150_000 + random() % 150_000))
            var capture = Capture()
            capture.sent = monotonicSeconds()
            try ptp.run(.initiateCapture, [0, 0])
            let handle = try awaitCapture(host: host, announced: &capture.announced)
            var file: [UInt8] = []
            try ptp.run(.getObject, [handle]) { file.append(contentsOf: $0) }
            capture.received = monotonicSeconds()
            let again = monotonicSeconds()
            var count = 0
            try ptp.run(.getObject, [handle]) { count += $0.count }
            capture.fetchedAgain = monotonicSeconds() - again
            // (The photo thread says so just after its report, which is what sent the event:
            // the computer may be quicker than the line.)
            let deadline = monotonicSeconds() + 10
            while savedAt.withLock({ $0.count <= number }) && monotonicSeconds() < deadline { usleep(1000) }
            guard let saved = savedAt.withLock({ $0.count > number ? $0[number] : nil }) else {
                throw BenchError("capture \(number + 1): the camera said nothing of a photo saved")
            }
            let info = try PTPObjectInfo.decode(try ptp.data(.getObjectInfo, [handle]))
            let onCard = try AtomicFile.read(card + "/DCIM/100REFLX/" + info.fileName, limit: 64 << 20) ?? []
            guard file == onCard, count == file.count, info.fileName.hasSuffix(".JPG") else {
                throw BenchError("capture \(number + 1): \(file.count) bytes came for \(info.fileName), not its \(onCard.count) on the card")
            }
            (capture.saved, capture.bytes) = (saved, file.count)
            done.append(capture)
        }
        print(Self.summary(done))
    }

    /// The handle of the capture's file: its ObjectAdded (the last before CaptureComplete; a
    /// new folder's comes first), with when CaptureComplete came.
    private func awaitCapture(host: USBStillImageHost, announced: inout Double) throws -> UInt32 {
        var handle: UInt32?
        let deadline = monotonicSeconds() + 60
        while monotonicSeconds() < deadline {
            guard let event = try host.event(within: 1000) else { continue }
            if event.code == PTPEventCode.objectAdded.rawValue, let added = event.parameters.first { handle = added }
            if event.code == PTPEventCode.captureComplete.rawValue {
                announced = monotonicSeconds()
                guard let handle else { throw BenchError("CaptureComplete came without an ObjectAdded") }
                return handle
            }
        }
        throw BenchError("no CaptureComplete within 60 s of InitiateCapture")
    }

    private static func summary(_ captures: [Capture]) -> String {
        func ms(_ seconds: [Double], _ fraction: Double) -> String {
            let sorted = seconds.sorted()
            return Formatting.fixed(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1000, 1)
        }
        func line(_ seconds: [Double]) -> String { "p50 \(ms(seconds, 0.5)) ms, max \(ms(seconds, 1)) ms" }
        let whole = captures.map { $0.received - $0.sent }
        let saving = captures.map { $0.saved - $0.sent }
        let event = captures.map { $0.announced - $0.saved }
        let transfer = captures.map { $0.received - $0.announced }
        let reference = captures.map(\.fetchedAgain)
        let bound = zip(saving, reference).map { $0 + $1 }
        let within = zip(whole, bound).filter { $0 <= $1 + 0.005 }.count
        let kilobytes = captures.map(\.bytes).reduce(0, +) / max(captures.count, 1) / 1000
        return "Tethered capture: \(captures.count) InitiateCaptures from the computer (JPEG, about \(kilobytes) KB), "
            + "each to the file whole on the computer\n"
            + "  InitiateCapture → the JPEG on the computer: \(line(whole))\n"
            + "  of it: the camera's save (the command sent → the file on the card) \(line(saving)); its ObjectAdded and "
            + "CaptureComplete after the save \(line(event)); the file's GetObject \(line(transfer))\n"
            + "  reference, the same file fetched again: \(line(reference)); the save + that: \(line(bound))\n"
            + "  \(within) of \(captures.count) within the camera's save + the transfer (5 ms allowed for the event's "
            + "interrupt transfer; target: all)"
    }
}
