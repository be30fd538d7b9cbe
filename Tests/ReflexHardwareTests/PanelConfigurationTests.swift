import ReflexHardware
import ReflexISP
import Testing

@Suite("The board's display.conf")
struct PanelConfigurationTests {
    @Test func everyKeyIsRead() throws {
        let text = "# a DSI panel mounted upside down\ncard = /dev/dri/card1\nconnector = DSI-1\nmode = 800x480\nrotation = 180\n"
        let configuration = try PanelConfiguration.parse(text).get()
        #expect(configuration.card == "/dev/dri/card1")
        #expect(configuration.connector == "DSI-1")
        #expect(configuration.modeWidth == 800 && configuration.modeHeight == 480)
        #expect(configuration.rotation == .upsideDown)
    }

    @Test func nothingSaidMeansTheFirstDisplayUpright() throws {
        let configuration = try PanelConfiguration.parse("").get()
        #expect(configuration == PanelConfiguration())
        #expect(configuration.rotation == .none)
    }

    @Test(arguments: ["rotation = 45", "mode = 800", "mode = 0x480", "card = card1", "colour = blue", "rotation"])
    func badLinesAreRefusedWithTheirReason(_ text: String) {
        guard case .failure(let problem) = PanelConfiguration.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(!problem.description.isEmpty)
    }
}
