import CLinux
import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The computer's end of a camera's cable: a still-image-class device (interface 6/1/1) on
/// this machine's USB host side, its interface claimed and its bulk pipes driven through
/// usbdevfs, the kernel's own interface (as libusb does underneath gphoto2). What `reflex
/// bench usb` fetches files with, from Reflex's gadget and from a reference responder alike.
public final class USBStillImageHost: PTPHostPipes {
    /// Where a device sits and its interface's bulk endpoints, as sysfs lists them.
    public struct Address: Sendable, Hashable {
        public let bus: Int, device: Int
        public let interface: UInt32
        public let bulkIn: UInt32, bulkOut: UInt32
        /// The interrupt endpoint the camera's events come on (nil: the interface has none).
        public let interruptIn: UInt32?
        /// The device's product string ("Reflex qemu-x86_64"), for the bench's lines.
        public let product: String

        /// usbdevfs's node of the device.
        public var node: String {
            func three(_ number: Int) -> String { String(repeating: "0", count: max(0, 3 - String(number).count)) + String(number) }
            return "/dev/bus/usb/\(three(bus))/\(three(device))"
        }
    }

    /// Every still-image interface on the machine's buses (`/sys/bus/usb/devices`), by bus and device.
    public static func devices(in folder: String = "/sys/bus/usb/devices") -> [Address] {
        func text(_ path: String) -> String? {
            guard let read = SmallFile.text(path) else { return nil }
            return String(read.reversed().drop { $0.isWhitespace }.reversed())
        }
        var found: [Address] = []
        for name in namesInFolder(folder) where name.contains(":") {
            let interface = folder + "/" + name
            guard text(interface + "/bInterfaceClass") == "06",
                  let number = text(interface + "/bInterfaceNumber").flatMap({ UInt32($0, radix: 16) }) else { continue }
            var bulkIn: UInt32?, bulkOut: UInt32?, interruptIn: UInt32?
            for endpoint in namesInFolder(interface) where endpoint.hasPrefix("ep_") {
                let path = interface + "/" + endpoint
                guard let address = text(path + "/bEndpointAddress").flatMap({ UInt32($0, radix: 16) }) else { continue }
                switch (text(path + "/type"), address & 0x80 != 0) {
                case ("Bulk", true): bulkIn = address
                case ("Bulk", false): bulkOut = address
                case ("Interrupt", true): interruptIn = address
                default: break
                }
            }
            let device = folder + "/" + String(name.prefix { $0 != ":" })
            guard let bulkIn, let bulkOut, let bus = text(device + "/busnum").flatMap({ Int($0) }),
                  let deviceNumber = text(device + "/devnum").flatMap({ Int($0) }) else { continue }
            found.append(Address(bus: bus, device: deviceNumber, interface: number, bulkIn: bulkIn, bulkOut: bulkOut,
                                 interruptIn: interruptIn, product: text(device + "/product") ?? "?"))
        }
        return found.sorted { ($0.bus, $0.device) < ($1.bus, $1.device) }
    }

    public let address: Address
    private let descriptor: Int32
    /// How long one transfer may wait for the device.
    public var timeoutMilliseconds: UInt32 = 10_000

    /// Opens the device's node and claims its interface (no driver of the kernel's holds a
    /// still-image interface).
    public init(_ address: Address) throws(SystemError) {
        self.address = address
        descriptor = open(address.node, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path: address.node) }
        let claimed = reflex_usb_claim_interface(descriptor, address.interface)
        guard claimed == 0 else {
            close(descriptor)
            throw SystemError("claim the still-image interface of", path: address.node, code: -claimed)
        }
    }

    /// (Closing the node releases the interface.)
    deinit { close(descriptor) }

    public func send(_ bytes: [UInt8]) throws(PTPHostPipesError) {
        var bytes = bytes
        let moved = bytes.withUnsafeMutableBytes { reflex_usb_bulk(descriptor, address.bulkOut, $0.baseAddress, UInt32($0.count), timeoutMilliseconds) }
        guard moved == bytes.count else { throw PTPHostPipesError("bulk out", code: moved < 0 ? -moved : EIO) }
    }

    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(PTPHostPipesError) -> Int {
        let moved = reflex_usb_bulk(descriptor, address.bulkIn, buffer.baseAddress, UInt32(buffer.count), timeoutMilliseconds)
        guard moved >= 0 else { throw PTPHostPipesError("bulk in", code: -moved) }
        return Int(moved)
    }

    /// The camera's next event from its interrupt pipe (ObjectAdded, CaptureComplete), or nil
    /// if none came within `milliseconds`. (usbdevfs's bulk transfer serves an interrupt
    /// endpoint too: the kernel makes it an interrupt transfer.)
    public func event(within milliseconds: UInt32) throws(PTPHostPipesError) -> PTPContainer? {
        guard let endpoint = address.interruptIn else { throw PTPHostPipesError("events (no interrupt endpoint)", code: ENODEV) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let moved = bytes.withUnsafeMutableBytes { reflex_usb_bulk(descriptor, endpoint, $0.baseAddress, UInt32($0.count), milliseconds) }
        if moved == -ETIMEDOUT { return nil }
        guard moved >= 0 else { throw PTPHostPipesError("interrupt in", code: -moved) }
        guard case .success(let event) = PTPContainer.parse(Array(bytes[..<Int(moved)])) else {
            throw PTPHostPipesError("interrupt in (not a container)", code: EPROTO)
        }
        return event
    }
}
