import ReflexCore
import ReflexFormats
import ReflexTestSupport
import Testing
@testable import ReflexUI

/// The remote's sheet on the camera's screen (issue 54, the network): both QR codes read by a
/// real reader off the composited screen, as a phone's camera would read them; the network's
/// name, passphrase and the pairing code beside them; nothing to read while it is not serving.
@Suite struct RemoteSheetTests {
    static let width = 1280, height = 800
    static let network = WiFiNetwork(name: "Reflex-3F9A", passphrase: "k7mq-x3vp-9tfd")
    static let page = "http://192.168.4.1/"

    static func serving(code: String = "042917") throws -> RemoteReport {
        var report = RemoteReport(state: .serving)
        report.network = network
        let joinCode: QRCode = try #require(QREncoder.encode(network.joinText))
        report.joinCode = joinCode
        report.pageAddress = page
        report.pairingCode = code
        let pageCode: QRCode = try #require(QREncoder.encode(RemoteReport.pairingAddress(page: page, code: code)))
        report.pageCode = pageCode
        return report
    }

    /// The screen with `report` on the sheet over the menu (or not), over a mid-grey picture;
    /// its grey levels.
    static func screen(_ report: RemoteReport, sheet: Bool = true) throws -> [UInt8] {
        let layout = ScreenLayout(width: width, height: height, sensorWidth: 1920, sensorHeight: 1080)
        let renderer = InterfaceRenderer(layout: layout, fonts: try FontLibrary(folder: GoldenImage.repository + "/Fonts"),
                                         scales: DialScales(CameraModel(settings: CameraSettings(), limits: .unlimited)))
        var state = ViewState()
        state.settings.remote = true
        if sheet { state.menu.showRemote() } else { state.menu.open() }
        state.remote = report
        renderer.update(state)
        var pixels = [UInt32](repeating: 0xFF80_8080, count: width * height)
        pixels.withUnsafeMutableBufferPointer { buffer in
            renderer.composite(into: buffer.baseAddress!, stride: width, InterfaceRenderer.FrameOverlay(), screen: .live)
        }
        return pixels.map { UInt8(truncatingIfNeeded: ($0 >> 8) & 0xFF) }
    }

    static func read(_ grey: [UInt8]) throws -> [String] {
        try QRReader.read(width: width, height: height) { x, y in grey[y * width + x] }
    }

    @Test(.tags(.externalTool)) func aPhoneReadsTheNetworkAndThePageOffTheScreen() throws {
        let texts = try Self.read(try Self.screen(try Self.serving()))
        #expect(texts == ["WIFI:T:WPA;S:Reflex-3F9A;P:k7mq-x3vp-9tfd;;", "http://192.168.4.1/#code=042917"].sorted())
    }

    @Test(.tags(.externalTool)) func theMenuAloneShowsNoCode() throws {
        #expect(try Self.read(try Self.screen(try Self.serving(), sheet: false)).isEmpty)
    }

    @Test(.tags(.externalTool)) func startingOrFailedShowsWordsNotCodes() throws {
        #expect(try Self.read(try Self.screen(RemoteReport(state: .starting))).isEmpty)
        let failed = try Self.screen(RemoteReport(state: .failed("No Wi-Fi: this board's wlan0 is missing")))
        #expect(try Self.read(failed).isEmpty)
        // Its words are there: light text in the middle of the dark sheet.
        let area = RemoteSheetPainter.area(ScreenLayout(width: Self.width, height: Self.height, sensorWidth: 1920, sensorHeight: 1080))
        let middle = area.y + area.height / 2
        let light = (area.x..<(area.x + area.width)).filter { failed[middle * Self.width + $0] > 200 }.count
        #expect(light > 20, "the reason is written across the sheet")
    }

    @Test func aNewPairingCodeRepaintsTheSheet() throws {
        #expect(try Self.screen(try Self.serving(code: "111111")) != (try Self.screen(try Self.serving(code: "222222"))))
    }
}
