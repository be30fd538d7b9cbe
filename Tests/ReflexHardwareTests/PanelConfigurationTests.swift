import ReflexCore
import ReflexHardware
import ReflexISP
import Testing

@Suite("The board's display.conf")
struct PanelConfigurationTests {
    @Test func everyKeyIsRead() throws {
        let text = "# a DSI panel mounted upside down\ncard = /dev/dri/card1\nconnector = DSI-1\nmode = 800x480\nrotation = 180\ndpi = 187.5\nbacklight = 11-0045\n"
        let configuration = try PanelConfiguration.parse(text).get()
        #expect(configuration.card == "/dev/dri/card1")
        #expect(configuration.connector == "DSI-1")
        #expect(configuration.modeWidth == 800 && configuration.modeHeight == 480)
        #expect(configuration.rotation == .upsideDown)
        #expect(configuration.density == PanelDensity(dotsPerInch: 187.5))
        #expect(configuration.backlight == "11-0045")
    }

    @Test func nothingSaidMeansTheFirstDisplayUpright() throws {
        let configuration = try PanelConfiguration.parse("").get()
        #expect(configuration == PanelConfiguration())
        #expect(configuration.rotation == .none)
    }

    @Test(arguments: ["rotation = 45", "mode = 800", "mode = 0x480", "card = card1", "colour = blue", "rotation",
                      "dpi = 0", "dpi = -100", "backlight = /sys/class/backlight/x", "dpi = 5000", "dpi = nan", "dpi = high"])
    func badLinesAreRefusedWithTheirReason(_ text: String) {
        guard case .failure(let problem) = PanelConfiguration.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(!problem.description.isEmpty)
    }

    /// The density from the size the kernel reports for the connector (EDID or device tree).
    @Test func aPanelsDensityComesFromItsReportedSize() throws {
        // A 7-inch 1280x800 DSI panel, 150.7x94.2 mm in its device tree (rounded to whole mm).
        let seven = try #require(PanelDensity.measured(widthPixels: 1280, heightPixels: 800,
                                                       widthMillimetres: 151, heightMillimetres: 94))
        #expect(abs(seven.dotsPerInch - 215.7) < 0.5)
        // QEMU's virtual panel: its EDID says 32x20 cm (made up at 100 dpi, in whole cm).
        let qemu = try #require(PanelDensity.measured(widthPixels: 1280, heightPixels: 800,
                                                      widthMillimetres: 320, heightMillimetres: 200))
        #expect(abs(qemu.dotsPerInch - 101.6) < 0.5)
        // Turned: the same panel, the same density.
        #expect(PanelDensity.measured(widthPixels: 800, heightPixels: 1280, widthMillimetres: 94, heightMillimetres: 151) == seven)
        // A portrait panel whose size is given the other way round from its mode.
        #expect(PanelDensity.measured(widthPixels: 800, heightPixels: 1280, widthMillimetres: 151, heightMillimetres: 94) == seven)
        // No size, half a size, a 4:3 mode stretched over a 16:9 monitor, a projector's 1 mm.
        #expect(PanelDensity.measured(widthPixels: 1280, heightPixels: 800, widthMillimetres: 0, heightMillimetres: 0) == nil)
        #expect(PanelDensity.measured(widthPixels: 1280, heightPixels: 800, widthMillimetres: 160, heightMillimetres: 0) == nil)
        #expect(PanelDensity.measured(widthPixels: 1024, heightPixels: 768, widthMillimetres: 531, heightMillimetres: 299) == nil)
        #expect(PanelDensity.measured(widthPixels: 1920, heightPixels: 1080, widthMillimetres: 1, heightMillimetres: 1) == nil)
    }
}
