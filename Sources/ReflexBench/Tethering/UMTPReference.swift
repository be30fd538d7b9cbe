import ReflexHardware
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The reference responder: Debian's umtp-responder (umtprd) serving the same card folder,
/// read-only, on its own gadget (configfs and FunctionFS, as its package's example script
/// makes it) bound to a second device controller of the same kind.
final class UMTPReference: BenchResponder {
    static let program = "umtprd"
    private static let gadget = "/sys/kernel/config/usb_gadget/reflex-bench-umtp"
    private let mountPoint: String
    private let running: ChildProcess.Running
    private var bound = false

    init(card: String, controller: String, work: String) throws {
        let mountPoint = work + "/ffs-umtp"
        self.mountPoint = mountPoint
        Self.takeApart(mountPoint: mountPoint)
        let function = Self.gadget + "/functions/ffs.umtp", configuration = Self.gadget + "/configs/c.1"
        for folder in [Self.gadget, Self.gadget + "/strings/0x409", function, configuration, configuration + "/strings/0x409"] {
            guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { throw SystemError("mkdir", path: folder) }
        }
        for (attribute, value) in [("idVendor", "0x1d6b"), ("idProduct", "0x0100"), ("strings/0x409/manufacturer", "umtp-responder"),
                                   ("strings/0x409/product", "umtprd reference"), ("strings/0x409/serialnumber", "1"),
                                   ("configs/c.1/strings/0x409/configuration", "MTP"), ("configs/c.1/MaxPower", "120")] {
            try USBGadget.writeAttribute(value, to: Self.gadget + "/" + attribute)
        }
        _ = symlink(function, configuration + "/ffs.umtp")
        guard mkdir(mountPoint, 0o755) == 0 || errno == EEXIST, mount("umtp", mountPoint, "functionfs", 0, nil) == 0 else {
            throw SystemError("mount FunctionFS on", path: mountPoint)
        }
        // Its configuration as Debian's, but the card's folder read-only and this mount's endpoints.
        let settings = """
            loop_on_disconnect 1
            storage "\(card)" "card" "ro"
            manufacturer "umtp-responder"
            product "umtprd reference"
            serial "1"
            firmware_version "1"
            interface "MTP"
            usb_vendor_id 0x1D6B
            usb_product_id 0x0100
            usb_class 0x6
            usb_subclass 0x1
            usb_protocol 0x1
            usb_dev_version 0x3008
            usb_functionfs_mode 0x1
            usb_dev_path "\(mountPoint)/ep0"
            usb_epin_path "\(mountPoint)/ep1"
            usb_epout_path "\(mountPoint)/ep2"
            usb_epint_path "\(mountPoint)/ep3"
            usb_max_packet_size 0x200

            """
        let file = work + "/umtprd.conf"
        try AtomicFile.write(Array(settings.utf8), to: file)
        // (Its log to a file: a pipe nobody read would stop it mid-transfer once full.)
        do {
            running = try ChildProcess.start(["/bin/sh", "-c", "exec \(Self.program) -conf \(file) >\(work)/umtprd.log 2>&1"])
        } catch {
            Self.takeApart(mountPoint: mountPoint)
            throw error
        }
        // It writes its descriptors to ep0 first; the endpoints appear then.
        let deadline = monotonicSeconds() + 20
        while access(mountPoint + "/ep1", F_OK) != 0 || (try? USBGadget.writeAttribute(controller, to: Self.gadget + "/UDC")) == nil {
            guard monotonicSeconds() < deadline, running.hasEnded() == nil else {
                stop()
                throw BenchError("umtprd did not set up its function (its log: \(work)/umtprd.log)")
            }
            usleep(50_000)
        }
        bound = true
    }

    /// Whether umtprd is on this machine's PATH.
    static var isInstalled: Bool {
        (try? ChildProcess.run(["/bin/sh", "-c", "command -v \(program)"], timeout: 10).status) == 0
    }

    /// (It serves from its start.)
    func ready() {}

    func stop() {
        if bound { try? USBGadget.writeAttribute("", to: Self.gadget + "/UDC") }
        running.stop()
        Self.takeApart(mountPoint: mountPoint)
    }

    /// The gadget and its mount gone, whatever of them there is (a bench stopped midway).
    private static func takeApart(mountPoint: String) {
        umount2(mountPoint, Int32(MNT_DETACH))
        unlink(Self.gadget + "/configs/c.1/ffs.umtp")
        for folder in ["/configs/c.1/strings/0x409", "/configs/c.1", "/functions/ffs.umtp", "/strings/0x409", ""] {
            rmdir(Self.gadget + folder)
        }
    }
}
