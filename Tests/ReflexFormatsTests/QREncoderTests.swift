import ReflexCore
import ReflexFormats
import ReflexTestSupport
import Testing

/// The remote's QR codes, made by libqrencode and read back by a real reader (zbarimg): what a
/// phone's camera finds is exactly what the camera meant (issue 54, the network).
@Suite struct QREncoderTests {
    /// The code drawn as the sheet draws it: `module` pixels a module, the quiet zone round it.
    static func read(_ code: QRCode, module: Int = 6) throws -> [String] {
        let side = (code.size + 2 * QRCode.quietZone) * module
        return try QRReader.read(width: side, height: side) { x, y in
            let (column, row) = (x / module - QRCode.quietZone, y / module - QRCode.quietZone)
            let inside = (0..<code.size).contains(column) && (0..<code.size).contains(row)
            return inside && code.isDark(x: column, y: row) ? 0 : 255
        }
    }

    @Test(.tags(.externalTool), arguments: [
        WiFiNetwork(name: "Reflex-3F9A", passphrase: "k7mq-x3vp-9tfd").joinText,
        WiFiNetwork(name: "Cam;1", passphrase: "a\\b:c,d\"e").joinText,
        RemoteReport.pairingAddress(page: "http://192.168.4.1/", code: "042917"),
    ])
    func whatTheCodeSaysIsWhatAPhoneReads(text: String) throws {
        let code = try #require(QREncoder.encode(text))
        #expect(code.size >= 21 && (code.size - 21) % 4 == 0, "a QR version's size: \(code.size)")
        #expect(try Self.read(code) == [text])
    }

    @Test func theFindersAreInTheirCorners() throws {
        let code = try #require(QREncoder.encode("http://192.168.4.1/#code=123456"))
        // A finder pattern: a dark 7x7 ring round a light ring round a dark 3x3 centre.
        for (left, top) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(code.isDark(x: left, y: top) && code.isDark(x: left + 6, y: top + 6) && code.isDark(x: left + 3, y: top + 3))
            #expect(!code.isDark(x: left + 1, y: top + 1) && !code.isDark(x: left + 5, y: top + 1))
        }
    }

    @Test func aTextNoCodeHoldsIsRefused() {
        #expect(QREncoder.encode(String(repeating: "x", count: 4000)) == nil)
    }
}
