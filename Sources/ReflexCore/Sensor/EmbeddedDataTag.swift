/// The tag bytes of CCS (SMIA) embedded data: after a line's data-format code, every data
/// byte is preceded by a tag saying what it is. The sensor writes its registers as runs:
/// an address (high then low byte), then values for consecutive addresses.
public enum EmbeddedDataTag {
    /// A line's first byte: "register data in 8-bit units" (CCS data format code 0x0A).
    public static let lineStart: UInt8 = 0x0A
    /// The byte is the address's high byte.
    public static let addressHigh: UInt8 = 0xAA
    /// The byte is the address's low byte.
    public static let addressLow: UInt8 = 0xA5
    /// The byte is the value of the register at the address; the address moves on by one.
    public static let value: UInt8 = 0x5A
    /// No value for this address (a register the sensor does not dump); the address moves on.
    /// Also what a packed line's padding bytes hold.
    public static let skip: UInt8 = 0x55
    /// The line's register data ends (tag and byte both 0x07; the rest of the line is filler).
    public static let lineEnd: UInt8 = 0x07
}
