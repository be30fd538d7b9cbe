import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A computer on the camera's cable fetching a 12 MP DNG again and again while a bench runs
/// the realtime loop (`bench frame --usb-megabytes N`, `bench usb`): Reflex's own USB function
/// and PTP threads serving it on dummy_hcd's first controller, the computer's side through
/// usbdevfs on a thread of its own. On dummy_hcd both sides are this machine's CPUs, so the
/// loop carries the computer's work too: more than a real cable asks of a camera.
final class BenchUSBTransfer: BenchCompanion, @unchecked Sendable {
    private let megabytes: Int
    private let work: String
    private let gadget: BenchGadget
    private let host: USBStillImageHost
    private let ptp: PTPInitiator
    private let handle: UInt32
    private let fileBytes: Int
    private let thread = WorkerThread(name: "bench-usb-host")
    private let moved = Atomic<Int>(0)
    private let failure = Mutex<String?>(nil)
    private let began = Mutex<(start: Double, end: Double?)>((0, nil))

    init(megabytes: Int, folder: String = "/tmp") throws {
        guard getuid() == 0 else { throw BenchError("--usb-megabytes runs as root: it makes a USB gadget in configfs") }
        guard let controller = USBGadget.controllers().first else {
            throw BenchError("no USB device controller here: `modprobe dummy_hcd` gives one whose host side is this machine")
        }
        self.megabytes = megabytes
        work = folder + "/reflex-bench-usb-loop-\(getpid())"
        try AtomicFile.createFolder(work)
        let card = work + "/card"
        fileBytes = try USBBench.makeDNG(in: card).count
        (gadget, host) = try USBBench.attach { [work] in try BenchGadget(card: BenchCard(root: card), controller: controller, work: work) }
        ptp = PTPInitiator(pipes: host)
        try ptp.run(.openSession, [1])
        guard let found = try USBBench.find(USBBench.fileName, ptp, in: PTPResponder.storageID, below: 0xFFFF_FFFF) else {
            throw BenchError("Reflex's gadget does not list \(USBBench.fileName)")
        }
        handle = found
    }

    func begin() {
        began.withLock { $0 = (monotonicSeconds(), nil) }
        let wanted = megabytes * 1_000_000
        _ = thread.start { [self] in
            while !thread.isStopping && moved.load(ordering: .relaxed) < wanted {
                do {
                    try ptp.run(.getObject, [handle]) { moved.add($0.count, ordering: .relaxed) }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
            }
            began.withLock { $0.end = monotonicSeconds() }
        }
    }

    func summary() -> String {
        let (start, end) = began.withLock { $0 }
        let seconds = max((end ?? monotonicSeconds()) - start, 1e-9)
        let bytes = moved.load(ordering: .relaxed)
        let done = bytes >= megabytes * 1_000_000
        return "USB: a computer fetched \(Formatting.fixed(Double(bytes) / 1e6, 0)) MB (a \(Formatting.fixed(Double(fileBytes) / 1e6, 1)) MB "
            + "DNG \(Formatting.fixed(Double(bytes) / Double(max(fileBytes, 1)), 1)) times) with GetObject in \(Formatting.fixed(seconds, 1)) s, "
            + "\(Formatting.fixed(Double(bytes) / 1e6 / seconds, 1)) MB/s"
            + (done ? "" : " (of the \(megabytes) MB asked: the measured frames ended first)")
            + (failure.withLock { $0 }.map { "; failed: \($0)" } ?? "")
    }

    func stop() {
        thread.stop()
        _ = try? ptp.run(.closeSession)
        gadget.stop()
        _ = try? ChildProcess.run(["/bin/rm", "-rf", work], timeout: 60)
    }
}
