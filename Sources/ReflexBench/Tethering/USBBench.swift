import ArgumentParser
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench usb`: a 12 MP DNG as the camera writes it (about 25 MB) fetched whole with
/// PTP's GetObject, from Reflex's own USB function and from Debian's umtp-responder serving
/// the same file, each on one of dummy_hcd's device controllers (this machine both the camera
/// and the computer), timed on the computer's side through usbdevfs. The first fetch from
/// each is checked against the file's bytes and not timed. Run as root, with dummy_hcd loaded
/// with two controllers and the camera's USB off.
struct USBBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usb", abstract: "Fetch a 25 MB DNG over USB (PTP GetObject) from Reflex's gadget, against umtp-responder.")

    @Option(help: "Timed fetches of the file from each responder.") var runs = 5
    @Option(help: "Where the bench's card folder is made (removed after).") var folder = "/tmp"

    static let width = 4056, height = 3040
    static let fileName = "RFLX0001.DNG"

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs takes 1 or more") }
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
        guard controllers.count >= 2 else {
            print("  umtp-responder: not run (one controller: `modprobe -r dummy_hcd && modprobe dummy_hcd num=2` gives two)")
            return
        }
        guard UMTPReference.isInstalled else {
            print("  umtp-responder: not run (umtprd is not installed: Debian's umtp-responder)")
            return
        }
        let reference = try measure(file: file) { try UMTPReference(card: card, controller: controllers[1], work: work) }
        print(reference.line)
        print("  Reflex ÷ umtp-responder: \(Formatting.fixed(reflex.bytesPerSecond / reference.bytesPerSecond, 2))× "
              + "the reference's throughput (target ≥ 0.9×)")
    }

    /// A responder set up by `start`, found on the bus, and the file fetched from it.
    private func measure(file: [UInt8], start: () throws -> BenchResponder) throws -> Fetched {
        let before = Set(USBStillImageHost.devices())
        let responder = try start()
        defer { responder.stop() }
        let deadline = monotonicSeconds() + 30
        var address: USBStillImageHost.Address?
        while address == nil {
            address = USBStillImageHost.devices().first { !before.contains($0) }
            guard address == nil else { break }
            guard monotonicSeconds() < deadline else { throw BenchError("the responder never appeared on the bus") }
            usleep(50_000)
        }
        try responder.ready()
        return try Self.fetch(file, from: address!, runs: runs)
    }

    /// Opens a session, finds the file by name and fetches it: once checked, then `runs` timed.
    private static func fetch(_ file: [UInt8], from address: USBStillImageHost.Address, runs: Int) throws -> Fetched {
        let host = try USBStillImageHost(address)
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
    private static func find(_ name: String, _ ptp: PTPInitiator, in storage: UInt32, below parent: UInt32) throws -> UInt32? {
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
    private static func makeDNG(in card: String) throws -> [UInt8] {
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
