/// A sensor register as its embedded data lists it: an address and a width. A 16-bit
/// register is two 8-bit addresses, the high byte first (CCS's layout: coarse integration
/// time at 0x0202–0x0203, analogue gain at 0x0204–0x0205).
public struct SensorRegister: Sendable, Equatable, CustomStringConvertible {
    public let address: UInt16
    /// 1 or 2.
    public let byteCount: Int

    /// CCS's coarse integration time: the exposure in lines (IMX477, IMX708 and most Sony
    /// sensors use the standard address).
    public static let ccsCoarseIntegrationTime = SensorRegister(address: 0x0202, byteCount: 2)!
    /// CCS's global analogue gain code (what the driver's ANALOGUE_GAIN control writes).
    public static let ccsAnalogueGain = SensorRegister(address: 0x0204, byteCount: 2)!

    public init?(address: UInt16, byteCount: Int) {
        guard byteCount == 1 || byteCount == 2, byteCount == 1 || address < 0xFFFF else { return nil }
        self.address = address
        self.byteCount = byteCount
    }

    /// `0x0202` (16 bits, the usual width) or `0x0157/8` (an 8-bit register, as the
    /// IMX219's gain is), as sensor.conf writes it.
    public init?(parsing text: String) {
        let parts = text.filter { !$0.isWhitespace }.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts[0].hasPrefix("0x"), let address = UInt16(parts[0].dropFirst(2), radix: 16) else {
            return nil
        }
        let bits = parts.count == 2 ? Int(parts[1]) : 16
        guard let bits, bits == 8 || bits == 16 else { return nil }
        self.init(address: address, byteCount: bits / 8)
    }

    /// Whether `address` holds one of this register's bytes; which one (0: the high byte).
    @inline(__always)
    func byteIndex(of other: UInt16) -> Int? {
        other >= address && Int(other - address) < byteCount ? Int(other - address) : nil
    }

    public var description: String {
        let hex = String(address, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + (byteCount == 1 ? "/8" : "")
    }
}
