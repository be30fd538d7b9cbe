@testable import ReflexHardware
import ReflexCore
import Testing

@Suite("Focus on the lens's own control")
struct LensControlsTests {
    /// V4L2: larger focus values are closer. Macro (0) is the control's maximum, infinity (1)
    /// its minimum, and the marks in between fall linearly.
    @Test func lensPositionsMapOntoTheControlsRange() {
        #expect(LensControls.focusValue(.macro, range: 0...1023) == 1023)
        #expect(LensControls.focusValue(.infinity, range: 0...1023) == 0)
        #expect(LensControls.focusValue(FocusPosition(thousandths: 400), range: 0...1023) == 614)
        #expect(LensControls.focusValue(FocusPosition(thousandths: 500), range: 10...250) == 130)
    }

    @Test func aControlValueReadsBackAsTheLensPosition() {
        for thousandths in [0, 400, 1000] {
            let value = LensControls.focusValue(FocusPosition(thousandths: thousandths), range: 0...1000)
            #expect(LensControls.focusPosition(value, range: 0...1000) == FocusPosition(thousandths: thousandths))
        }
    }

    @Test func theSimulatedSensorHasAFocusMotorAndNoWhiteBalanceOfItsOwn() {
        let lens = LensControls(device: SimulatedCamera.info, picturesAreRaw: true)
        #expect(lens.focus != nil && lens.focusAuto != nil)
        #expect(lens.temperature == nil && lens.autoWhiteBalance == nil)
    }
}
