import ReflexCore

/// Who the camera is to a computer on its cable: the device descriptor's IDs and version and
/// its strings (`Reflex`, the board, a serial from the machine id). The IDs are the Linux
/// Foundation's for a composite gadget, as development boards use, until a hardware maker
/// gives its own in the board's usb.conf (`BoardUSB`, `adopting`).
public struct USBGadgetIdentity: Equatable, Sendable {
    public var vendorID: UInt16 = 0x1D6B
    public var productID: UInt16 = 0x0104
    /// bcdDevice: the firmware's version, 0.1.0 as 0x0010.
    public var deviceVersion: UInt16
    public var manufacturer = "Reflex"
    public var product: String
    public var serialNumber: String

    /// The configuration's name, and the power it asks of the host (the camera has its own
    /// battery; a host's port is a charger at most).
    static let configurationName = "PTP"
    static let maximumPowerMilliamps = 500

    /// `board`: its folder's name ("qemu-x86_64"); `version`: "0.1.0"; `machineID`:
    /// /etc/machine-id's 32 hex digits (the serial is its first 16, upper case, as a
    /// camera's serial reads; "0" without one).
    public init(board: String, version: String, machineID: String) {
        product = board.isEmpty ? "Reflex" : "Reflex \(board)"
        let digits = machineID.filter(\.isHexDigit)
        serialNumber = digits.count >= 16 ? String(digits.prefix(16)).uppercased() : "0"
        // (Typed apart: Swift 6.2, the arm64 build's, cannot infer it in one expression.)
        let given: [UInt16] = version.split(separator: ".").map { UInt16($0) ?? 0 }
        let parts = given + [0, 0, 0]
        let major: UInt16 = min(parts[0], 0xFF), minor: UInt16 = min(parts[1], 0xF), patch: UInt16 = min(parts[2], 0xF)
        deviceVersion = major << 8 | minor << 4 | patch
    }

    /// This identity with a maker's own IDs and names (the board's usb.conf) where given.
    public func adopting(_ board: BoardUSB) -> USBGadgetIdentity {
        var identity = self
        if let vendor = board.vendorID, let product = board.productID { (identity.vendorID, identity.productID) = (vendor, product) }
        if let manufacturer = board.manufacturer { identity.manufacturer = manufacturer }
        if let product = board.product { identity.product = product }
        return identity
    }

    /// configfs's attribute files and what each is given.
    var attributes: [(String, String)] {
        [("idVendor", hex(vendorID)), ("idProduct", hex(productID)), ("bcdDevice", hex(deviceVersion)), ("bcdUSB", "0x0200"),
         ("strings/0x409/manufacturer", manufacturer), ("strings/0x409/product", product),
         ("strings/0x409/serialnumber", serialNumber)]
    }

    private func hex(_ value: UInt16) -> String { "0x" + String(value, radix: 16, uppercase: false) }
}
