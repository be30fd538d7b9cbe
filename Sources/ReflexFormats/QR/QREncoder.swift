import CQREncode
import ReflexCore

/// Text to a QR code through libqrencode: the smallest version that holds it, error
/// correction M (a screen read at an angle and in sunlight loses some of it), 8-bit bytes.
public enum QREncoder {
    /// nil when the text is too long for any QR code (over ~2,300 bytes at level M).
    public static func encode(_ text: String) -> QRCode? {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // (Each byte is one module; its lowest bit is dark.)
        let modules = (0..<size * size).map { code.pointee.data[$0] & 1 == 1 }
        return QRCode(size: size, modules: modules)
    }
}
