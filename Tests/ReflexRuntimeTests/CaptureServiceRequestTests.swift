import ReflexCore
import Testing
@testable import ReflexRuntime

/// The capture socket's request line, as `reflex capture` writes it.
@Suite struct CaptureServiceRequestTests {
    @Test func aRequestNamesItsCountFormatAndBracket() {
        let plain = CaptureService.parse("capture 3 raw+jpeg")
        #expect(plain?.count == 3 && plain?.format == .rawPlusJPEG && plain?.bracket == nil)
        #expect(CaptureService.parse("capture 1 settings")?.format == nil)
        let bracket = CaptureService.parse("capture 1 raw bracket 5 2")
        #expect(bracket?.bracket == BracketPlan(frames: 5, stepThirds: 2) && bracket?.format == .raw)
        for bad in ["capture 2 raw bracket 3 3", "capture 1 raw bracket 4 3", "capture 1 raw bracket 3 10",
                    "capture 1 raw brackets 3 3", "capture 1 raw bracket 3", "capture 0 raw"] {
            #expect(CaptureService.parse(bad) == nil, "\(bad)")
        }
    }
}
