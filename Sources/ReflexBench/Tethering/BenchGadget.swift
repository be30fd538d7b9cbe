import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Reflex's own USB function serving the bench's card, set up as the camera and its root
/// service set it up together (`USBGadget`, FunctionFS, `FunctionFSFunction`, `PTPTransport`),
/// in one process run as root: bound to `controller`, it answers a host on this machine's bus.
final class BenchGadget: BenchResponder {
    private let gadget = USBGadget()
    private let mountPoint: String
    private let function: FunctionFSFunction
    private let card: PTPCamera
    private var pipes: PTPPipes?
    private var transport: PTPTransport?
    /// What the camera signals as its card changes (a photo saved): the host's events.
    private let changed: EventSignal

    init(card: PTPCamera, controller: String, work: String, changed: EventSignal = EventSignal()) throws {
        (self.card, self.changed) = (card, changed)
        // (configfs as a module may have come after boot's mount of it was tried.)
        if access(gadget.gadgets, F_OK) != 0 { mount("configfs", "/sys/kernel/config", "configfs", 0, nil) }
        guard access(gadget.gadgets, F_OK) == 0 else { throw BenchError("the kernel has no USB gadgets: modprobe libcomposite") }
        guard access(gadget.folder, F_OK) != 0 else {
            throw BenchError("the camera's USB gadget is there (\(gadget.folder)): turn the camera's USB off first")
        }
        try gadget.create(USBGadgetIdentity(board: "bench", version: "bench", machineID: "0"))
        mountPoint = work + "/ffs-reflex"
        guard mkdir(mountPoint, 0o755) == 0 || errno == EEXIST,
              mount(USBGadget.functionName, mountPoint, "functionfs", 0, nil) == 0 else {
            let failure = SystemError("mount FunctionFS on", path: mountPoint)
            gadget.remove()
            throw failure
        }
        do {
            function = try FunctionFSFunction(folder: mountPoint)
            try gadget.bind(to: controller)
        } catch {
            umount2(mountPoint, Int32(MNT_DETACH))
            gadget.remove()
            throw error
        }
    }

    func ready() throws { try serve(within: 20) }

    /// Waits for the host to configure the device (FunctionFS's ENABLE), then starts PTP on
    /// the endpoints.
    func serve(within seconds: Double) throws {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            // (ep0's read waits for an event: polled first, so no host means an end, not a hang.)
            var ready = pollfd(fd: function.control, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) > 0 else { continue }
            guard let events = function.readEvents() else { break }
            guard events.contains(where: { if case .enable = $0 { true } else { false } }) else { continue }
            let opened = try function.openPipes()
            let started = PTPTransport(pipes: opened, camera: card, changed: changed, log: { _ in })
            guard started.start() else { throw BenchError("PTP's threads could not start") }
            (pipes, transport) = (opened, started)
            return
        }
        throw BenchError("no host configured Reflex's gadget within \(Int(seconds)) s")
    }

    func stop() {
        transport?.hostLeft()
        gadget.unbind()
        transport?.stop()
        if let pipes { FunctionFSFunction.close(pipes) }
        umount2(mountPoint, Int32(MNT_DETACH))
        gadget.remove()
    }
}
