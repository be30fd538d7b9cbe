/// A V4L2 or DRM pixel format code, shown as its four characters ("RG10", "pRAA").
public struct FourCC: Sendable, Hashable, CustomStringConvertible {
    public let code: UInt32

    public init(_ code: UInt32) { self.code = code }

    /// The code of four characters, the first in the lowest byte (as v4l2_fourcc builds it).
    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4, "a fourCC is four characters")
        var code: UInt32 = 0
        for index in 0..<4 { code |= UInt32(text.utf8Start[index]) << (8 * UInt32(index)) }
        self.code = code
    }

    public var description: String {
        var text = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8((code >> UInt32(shift)) & 0xff)
            text.append(byte >= 0x20 && byte < 0x7f ? Character(Unicode.Scalar(byte)) : "?")
        }
        return text
    }
}
