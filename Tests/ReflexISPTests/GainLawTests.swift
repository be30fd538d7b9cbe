import ReflexISP
import Testing

/// Gain registers that are not linear: Sony's gain = K / (K − code), as the IMX477 and IMX708
/// drivers pass it through as V4L2_CID_ANALOGUE_GAIN (the Raspberry Pi 5 boards' sensor.conf).
@Suite struct GainLawTests {
    @Test func sensorConfSpellsTheLawWithOneConstant() {
        #expect(GainLaw(parsing: "1024/(1024-code)") == .reciprocal(1024))
        #expect(GainLaw(parsing: " 256 / (256 - code) ") == .reciprocal(256))
        #expect(GainLaw(parsing: "1024/(256-code)") == nil)
        #expect(GainLaw(parsing: "code/16") == nil)
        #expect(GainLaw(parsing: "0/(0-code)") == nil)
        let calibration = try? SensorCalibration.parse("gain-law = 1024/(1024-code)\n").get()
        #expect(calibration?.gainLaw == .reciprocal(1024))
        #expect((try? SensorCalibration.parse("gain-law = linear\n").get()) == nil)
    }

    @Test func theIMX477sCodesGiveItsGains() {
        // Code 0 is 1×, 512 is 2×, 768 4×, and the driver's maximum 978 is 22.26×.
        let mapping = GainMapping(controlRange: 0...978, law: .reciprocal(1024), baseISO: 100)
        #expect(mapping.gain(forControlValue: 0) == 1)
        #expect(mapping.gain(forControlValue: 512) == 2)
        #expect(mapping.gain(forControlValue: 768) == 4)
        #expect(abs(mapping.gain(forControlValue: 978) - 1024.0 / 46) < 1e-9)
        #expect(mapping.isoRange == 100...2226)
        #expect(mapping.controlValue(forGain: 2) == 512)
        #expect(mapping.controlValue(forGain: 8) == 896)
        // Beyond the control's reach: its ends.
        #expect(mapping.controlValue(forGain: 100) == 978)
        #expect(mapping.controlValue(forGain: 0.5) == 0)
    }

    @Test func theIMX708sGainNeverReachesUnity() {
        // Its control starts at 112 (1.12×): the range begins there, not at 1×.
        let mapping = GainMapping(controlRange: 112...960, law: .reciprocal(1024), baseISO: 100)
        #expect(abs(mapping.gainRange.lowerBound - 1024.0 / 912) < 1e-9)
        #expect(mapping.gainRange.upperBound == 16)
        #expect(mapping.controlValue(forGain: 1) == 112)
        #expect(mapping.isoRange == 112...1600)
    }

    @Test func aLinearControlIsUnchanged() {
        let mapping = GainMapping(controlRange: 0...255, unity: 16, baseISO: 100)
        #expect(mapping.law == .linear(unity: 16))
        #expect(mapping.gain(forControlValue: 32) == 2)
        #expect(mapping.controlValue(forGain: 4) == 64)
        #expect(mapping.isoRange == 100...1594)
    }
}
