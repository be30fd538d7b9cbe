import CV4L2
import ReflexCore
import ReflexISP
import Testing
@testable import ReflexHardware

/// The board's test pattern, named as an integrator reads it in `v4l2-ctl -L`.
@Suite("Test pattern")
struct TestPatternTests {
    /// vimc's sensor's menu, as its driver lists it (the start of it).
    let items: [(value: Int64, name: String)] = [(0, "75% Colorbar"), (1, "100% Colorbar"), (2, "CSC Colorbar"), (5, "100% Black")]

    @Test func aPatternIsFoundByItsNameInAnyCaseOrByItsNumber() {
        #expect(TestPattern.value("100% Colorbar", items: items) == 1)
        #expect(TestPattern.value("100% colorbar", items: items) == 1)
        #expect(TestPattern.value("5", items: items) == 5)
    }

    @Test func aPatternTheMenuDoesNotHaveIsNone() {
        #expect(TestPattern.value("3", items: items) == nil, "a gap in the menu")
        #expect(TestPattern.value("Colorbar", items: items) == nil, "no guessing at part of a name")
    }

    @Test func theStandardControlOrADriversOwnMenuOfThatName() {
        func device(_ controls: [CaptureDeviceInfo.Control]) -> CaptureDeviceInfo {
            CaptureDeviceInfo(path: "/dev/video0", driver: "d", card: "c", busInfo: "b", formats: [], controls: controls)
        }
        let standard = CaptureDeviceInfo.Control(id: REFLEX_V4L2_CID_TEST_PATTERN, name: "Test Pattern", type: "menu",
                                                 minimum: 0, maximum: 4, step: 1, defaultValue: 0)
        let vimcs = CaptureDeviceInfo.Control(id: 0x00f0_f000, name: "Test Pattern", type: "menu", minimum: 0, maximum: 21, step: 1,
                                              defaultValue: 0)
        let other = CaptureDeviceInfo.Control(id: 0x00f0_f001, name: "Show Information", type: "menu", minimum: 0, maximum: 3,
                                              step: 1, defaultValue: 0)
        #expect(TestPattern.control(of: device([vimcs, standard]))?.id == REFLEX_V4L2_CID_TEST_PATTERN)
        #expect(TestPattern.control(of: device([other, vimcs]))?.id == 0x00f0_f000)
        #expect(TestPattern.control(of: device([other])) == nil)
    }

    @Test func theBoardNamesItInSensorConf() throws {
        let calibration = try SensorCalibration.parse("test-pattern = 100% Colorbar\n").get()
        #expect(calibration.testPattern == "100% Colorbar")
        #expect(try SensorCalibration.parse("base-iso = 100\n").get().testPattern == nil)
    }

    @Test func aBusCodeIsStoredInTheFormatsOfItsDepthAndOrder() {
        func fourCC(_ text: StaticString) -> UInt32 { FourCC(text).code }
        #expect(MediaBusFormat.pixelFormats(forCode: 0x3012) == [fourCC("RG12"), fourCC("pRCC")], "SRGGB12_1X12")
        #expect(MediaBusFormat.pixelFormats(forCode: 0x3001) == [fourCC("BA81")], "SBGGR8_1X8")
        #expect(MediaBusFormat.pixelFormats(forCode: 0x100A) == [fourCC("RGB3")])
        #expect(MediaBusFormat.pixelFormats(forCode: 0x9999).isEmpty)
        #expect(MediaBusFormat.isBayer(0x3012) && !MediaBusFormat.isBayer(0x100A))
    }
}
