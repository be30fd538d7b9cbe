import ArgumentParser
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench usb`, issue 55's three figures, on dummy_hcd's device controllers (this
/// machine both the camera and the computer), the computer's side through usbdevfs:
/// - a 12 MP DNG as the camera writes it (about 25 MB) fetched whole with PTP's GetObject,
///   from Reflex's own USB function and from Debian's umtp-responder serving the same file
///   (the first fetch from each checked against the file's bytes and not timed);
/// - InitiateCapture to the JPEG on the computer, against the camera's own save and the
///   file's transfer (`TetheredCaptureBench`);
/// - the realtime loop (`bench frame`) without a transfer and during one of a gigabyte
///   (`BenchUSBTransfer`).
/// Run as root, with dummy_hcd loaded with two controllers and the camera's USB off.
struct USBBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usb", abstract: "Fetch a 25 MB DNG over USB (PTP GetObject) from Reflex's gadget, against umtp-responder.")

    @Option(help: "Timed fetches of the file from each responder.") var runs = 5
    @Option(help: "Where the bench's card folder is made (removed after).") var folder = "/tmp"
    @Option(help: "Photos the computer takes with InitiateCapture (0: that part not run).") var captures = 10
    @Option(help: "Megabytes the computer fetches while the realtime loop is measured (0: that part not run).")
    var loopMegabytes = 1024
    @Option(help: "Frames of each loop run (default: as many as the transfer should take at the throughput measured first, and a fifth more).")
    var loopFrames: Int?
    @Option(help: "The test data folder for the loop's frames (default: the repository's Tests/Data).") var testdata: String?

    static let width = 4056, height = 3040
    static let fileName = "RFLX0001.DNG"

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs takes 1 or more") }
        guard captures >= 0, loopMegabytes >= 0 else { throw ValidationError("--captures and --loop-megabytes take 0 or more") }
        guard (loopFrames ?? 1) >= 1 else { throw ValidationError("--loop-frames takes 1 or more") }
    }

    func run() throws {
        guard getuid() == 0 else {
            throw BenchError("reflex bench usb runs as root: it makes USB gadgets in configfs and mounts FunctionFS")
        }
        let controllers = USBGadget.controllers()
        guard !controllers.isEmpty else {
            throw BenchError("no USB device controller here: `modprobe dummy_hcd num=2` gives two whose host side is this machine")
        }
        let work = folder + "/reflex-bench-usb-\(getpid())"
        try AtomicFile.createFolder(work)
        defer { _ = try? ChildProcess.run(["/bin/rm", "-rf", work], timeout: 60) }
        let card = work + "/card"
        let file = try Self.makeDNG(in: card)
        print("USB: GetObject of a \(Self.width)x\(Self.height) DNG (\(Formatting.fixed(Double(file.count) / 1e6, 1)) MB), "
              + "median of \(runs) fetches each, on dummy_hcd's controllers \(controllers.joined(separator: ", "))")

        let reflex = try measure(file: file) { try BenchGadget(card: BenchCard(root: card), controller: controllers[0], work: work) }
        print(reflex.line)
        if controllers.count < 2 {
            print("  umtp-responder: not run (one controller: `modprobe -r dummy_hcd && modprobe dummy_hcd num=2` gives two)")
        } else if !UMTPReference.isInstalled {
            print("  umtp-responder: not run (umtprd is not installed: Debian's umtp-responder)")
        } else {
            let reference = try measure(file: file) { try UMTPReference(card: card, controller: controllers[1], work: work) }
            print(reference.line)
            print("  Reflex ÷ umtp-responder: \(Formatting.fixed(reflex.bytesPerSecond / reference.bytesPerSecond, 2))× "
                  + "the reference's throughput (target ≥ 0.9×)")
        }
        if captures > 0 {
            try TetheredCaptureBench(captures: captures, controller: controllers[0], folder: work + "/tethered").run()
        }
        if loopMegabytes > 0 { try loopBesideATransfer(expectedBytesPerSecond: reflex.bytesPerSecond) }
    }

    /// `bench frame` twice: alone, then while the computer fetches `loopMegabytes` (as many
    /// frames as the transfer should take at the throughput just measured, and a fifth more).
    private func loopBesideATransfer(expectedBytesPerSecond: Double) throws {
        let seconds = Double(loopMegabytes) * 1e6 / expectedBytesPerSecond * 1.2
        let frames = loopFrames ?? max(600, Int(seconds * 60))
        // (The run without the transfer is the reference: the ISP's and memcpy's rows left out.)
        var arguments = ["--frames", String(frames), "--no-references"]
        if let testdata { arguments += ["--testdata", testdata] }
        print("The realtime loop without a transfer, then while the computer fetches \(loopMegabytes) MB:")
        try FrameBench.parse(arguments).run()
        try FrameBench.parse(arguments + ["--usb-megabytes", String(loopMegabytes)]).run()
        print("  target: the loop's p99 and missed vblanks the same with the transfer as without")
    }

    /// A responder set up by `start`, found on the bus, and the file fetched from it.
    private func measure(file: [UInt8], start: () throws -> some BenchResponder) throws -> Fetched {
        let (responder, host) = try Self.attach(start)
        defer { responder.stop() }
        return try Self.fetch(file, from: host, runs: runs)
    }

    /// A responder set up by `start`, once it appeared on the bus and answers PTP, and the
    /// computer's end of its cable (its interface claimed).
    static func attach<Responder: BenchResponder>(_ start: () throws -> Responder) throws -> (Responder, USBStillImageHost) {
        let before = Set(USBStillImageHost.devices())
        let responder = try start()
        do {
            let deadline = monotonicSeconds() + 30
            var address: USBStillImageHost.Address?
            while address == nil {
                address = USBStillImageHost.devices().first { !before.contains($0) }
                guard address == nil else { break }
                guard monotonicSeconds() < deadline else { throw BenchError("the responder never appeared on the bus") }
                usleep(50_000)
            }
            try responder.ready()
            return (responder, try USBStillImageHost(address!))
        } catch {
            responder.stop()
            throw error
        }
    }

    /// Opens a session, finds the file by name and fetches it: once checked, then `runs` timed.
    private static func fetch(_ file: [UInt8], from host: USBStillImageHost, runs: Int) throws -> Fetched {
        let ptp = PTPInitiator(pipes: host)
        // (In a session: umtprd answers GetDeviceInfo outside one with SessionNotOpen.)
        try ptp.run(.openSession, [1])
        defer { _ = try? ptp.run(.closeSession) }
        let info = try PTPDeviceInfo.decode(try ptp.data(.getDeviceInfo))
        var storages = PTPDataReader(try ptp.data(.getStorageIDs))
        var handle: UInt32?
        for storage in try storages.uint32Array() where handle == nil {
            handle = try find(fileName, ptp, in: storage, below: 0xFFFF_FFFF)
        }
        guard let handle else { throw BenchError("\(info.manufacturer) does not list \(fileName)") }
        var received: [UInt8] = []
        received.reserveCapacity(file.count)
        try ptp.run(.getObject, [handle]) { received.append(contentsOf: $0) }
        guard received == file else {
            throw BenchError("\(info.manufacturer) gave \(received.count) bytes that are not the file's \(file.count)")
        }
        var count = 0
        let seconds = try medianSeconds(runs) {
            count = 0
            try ptp.run(.getObject, [handle]) { count += $0.count }
        }
        guard count == file.count else { throw BenchError("\(info.manufacturer) gave \(count) of \(file.count) bytes") }
        return Fetched(name: "\(info.manufacturer) (\(info.model))", bytes: count, seconds: seconds)
    }

    /// The handle of the file called `name` in `storage`'s folder `parent` or below
    /// (0xFFFFFFFF: the storage's root), folders listed as a host lists them, one level at a
    /// time, storage by storage (umtprd refuses "every storage" as InvalidStorageID).
    static func find(_ name: String, _ ptp: PTPInitiator, in storage: UInt32, below parent: UInt32) throws -> UInt32? {
        var reader = PTPDataReader(try ptp.data(.getObjectHandles, [storage, 0, parent]))
        for handle in try reader.uint32Array() {
            let info = try PTPObjectInfo.decode(try ptp.data(.getObjectInfo, [handle]))
            if info.fileName == name { return handle }
            if info.format == .association, let found = try find(name, ptp, in: storage, below: handle) { return found }
        }
        return nil
    }

    /// A DNG of the simulated sensor's 12 MP frame, as the camera writes one (the raw data
    /// uncompressed; its preview plain grey: the bench moves bytes, it shows no picture).
    static func makeDNG(in card: String) throws -> [UInt8] {
        let frame = LargeFrame(width: width, height: height)
        defer { frame.free() }
        let previewHeight = DNGEncoder.previewWidth * height / width
        let grey = [UInt8](repeating: 118, count: DNGEncoder.previewWidth * previewHeight * 3)
        let dng = try grey.withUnsafeBufferPointer { preview throws(PhotoEncodingError) in
            try DNGEncoder.encode(raw: frame.bytes.baseAddress!, layout: frame.layout, photo: PhotoFileBench.photo,
                                  rawDescription: PhotoFileBench.rawDescription(of: frame),
                                  preview: RGBImage(pixels: preview.baseAddress!, width: DNGEncoder.previewWidth, height: previewHeight),
                                  compression: .none)
        }
        try AtomicFile.createFolder(card + "/DCIM")
        try AtomicFile.createFolder(card + "/DCIM/" + BenchCard.folder)
        try AtomicFile.write(dng, to: card + "/DCIM/" + BenchCard.folder + "/" + fileName)
        return dng
    }

    /// One responder's figure.
    struct Fetched {
        let name: String
        let bytes: Int
        let seconds: Double
        var bytesPerSecond: Double { Double(bytes) / seconds }
        var line: String {
            "  \(name): \(Formatting.fixed(Double(bytes) / 1e6, 1)) MB in \(Formatting.fixed(seconds * 1000, 0)) ms, "
                + "\(Formatting.fixed(bytesPerSecond / 1e6, 1)) MB/s"
        }
    }
}
