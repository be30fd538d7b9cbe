import Testing
@testable import ReflexCore

@Suite("The camera model: modes and dials")
struct CameraModelTests {
    let metered = MeteredValues(iso: ISOSpeed(420), exposureSeconds: 1.0 / 137, focus: FocusPosition(0.61), kelvin: 5230)

    func proModel(_ limits: SensorLimits = .unlimited) -> CameraModel {
        var model = CameraModel(settings: .firstStart, limits: limits)
        model.setMode(.pro)
        return model
    }

    @Test func firstStartIsAutoJPEGWithoutGeotag() {
        let settings = CameraSettings.firstStart
        #expect(settings.mode == .auto)
        #expect(settings.format == .jpeg)
        #expect(!settings.geotag)
        #expect(!settings.hasManualParameters)
    }

    @Test func dialsDoNothingInAutoMode() {
        var model = CameraModel(settings: .firstStart, limits: .unlimited)
        #expect(model.turn(.iso, .up, metered: metered) == .none)
        #expect(model.settings.iso == .auto)
        let changed1 = model.setWhiteBalance(.preset(.sunny))
        #expect(!changed1)
    }

    @Test func aDialLeavingAutoStartsOneStopFromTheMeteredValue() {
        var model = proModel()
        #expect(model.turn(.iso, .up, metered: metered) == .tick)
        #expect(model.settings.iso == .manual(ISOSpeed(500)))    // metered 420 → 400 → up
        #expect(model.turn(.shutter, .up, metered: metered) == .tick)
        #expect(model.settings.shutter == .manual(ShutterSpeed(1, 160)))  // 1/137 → 1/125 → faster
        #expect(model.turn(.focus, .down, metered: metered) == .tick)
        #expect(model.settings.focus == .manual(FocusPosition(0.59)))  // passing the 0.6 mark ticks
        #expect(model.turn(.whiteBalance, .up, metered: metered) == .tick)
        #expect(model.settings.whiteBalance == .kelvin(5300))   // 5230 → 5200 → up
    }

    @Test func theKelvinDialStartsFromTheSelectedPreset() {
        var model = proModel()
        model.setWhiteBalance(.preset(.tungsten))
        _ = model.turn(.whiteBalance, .down, metered: metered)
        #expect(model.settings.whiteBalance == .kelvin(3100))
    }

    @Test func leavingProReturnsEveryManualParameterToAutomatic() {
        var model = proModel()
        _ = model.turn(.iso, .up, metered: metered)
        _ = model.turn(.shutter, .up, metered: metered)
        _ = model.turn(.focus, .up, metered: metered)
        model.setWhiteBalance(.preset(.shade))
        #expect(model.settings.hasManualParameters)
        let changed2 = model.setMode(.auto)
        #expect(changed2)
        #expect(model.settings.iso == .auto)
        #expect(model.settings.shutter == .auto)
        #expect(model.settings.focus == .auto)
        #expect(model.settings.whiteBalance == .auto)
        // Back in Pro, the dials start from Auto again.
        model.setMode(.pro)
        #expect(!model.settings.hasManualParameters)
    }

    @Test func manyStepsReportTicksAndStopAtTheBound() {
        var model = proModel(SensorLimits(isoRange: 100...800, exposureRange: 0.0001...0.1,
                                          hasFocusControl: true, hasRawFormat: true))
        let spin = model.turn(.iso, steps: 20, metered: metered)
        #expect(model.settings.iso == .manual(ISOSpeed(800)))
        #expect(spin.ticks == 3)      // 400 → 500 → 640 → 800
        #expect(spin.bumped)
        let back = model.turn(.iso, steps: -2, metered: metered)
        #expect(back.ticks == 2 && !back.bumped)
        #expect(model.settings.iso == .manual(ISOSpeed(500)))
    }

    @Test func restoredValuesAreFittedToTheSensor() {
        var saved = CameraSettings()
        saved.setMode(.pro)
        saved.iso = .manual(ISOSpeed(12800))
        saved.shutter = .manual(ShutterSpeed(1, 1))
        saved.focus = .manual(FocusPosition(0.4))
        saved.format = .raw
        let small = SensorLimits(isoRange: 100...1600, exposureRange: 0.0001...(1.0 / 30),
                                 hasFocusControl: false, hasRawFormat: false)
        let model = CameraModel(settings: saved, limits: small)
        #expect(model.settings.iso == .manual(ISOSpeed(1600)))
        #expect(model.settings.shutter == .manual(ShutterSpeed(1, 30)))
        #expect(model.settings.focus == .auto)
        #expect(model.settings.format == .jpeg)
        #expect(model.availableFormats == [.jpeg])
        #expect(model.availableDials == [.iso, .shutter, .whiteBalance])
        #expect(Dial.allCases.filter(model.offers) == model.availableDials)
        // The dial picker goes round the offered ones, either way.
        #expect(model.dial(1, along: .shutter) == .whiteBalance && model.dial(2, along: .shutter) == .iso)
        #expect(model.dial(-1, along: .iso) == .whiteBalance && model.dial(-4, along: .iso) == .whiteBalance)
        #expect(model.dial(0, along: .shutter) == .shutter)
        let full = CameraModel(settings: CameraSettings(), limits: .unlimited)
        #expect((0..<4).map { full.dial($0, along: .iso) } == Dial.allCases)
        #expect(Dial.allCases.allSatisfy { $0.next.previous == $0 })
        // Pro's strip, left to right, in the same order.
        #expect((0..<4).map { Dial(position: $0) } == Dial.allCases && Dial(position: 4) == nil && Dial(position: -1) == nil)
        var unchanged = model
        let changed3 = unchanged.setFormat(.raw)
        #expect(!changed3)
        #expect(unchanged.turn(.focus, .up, metered: metered) == .none)
    }

    @Test func resetOneDialToAuto() {
        var model = proModel()
        _ = model.turn(.iso, .up, metered: metered)
        let changed4 = model.resetToAuto(.iso)
        #expect(changed4)
        #expect(model.settings.iso == .auto)
        let changed5 = model.resetToAuto(.iso)
        #expect(!changed5)
    }

    @Test func formatAndGeotagAreSettings() {
        var model = CameraModel(settings: .firstStart, limits: .unlimited)
        let changed6 = model.setFormat(.rawPlusJPEG)
        #expect(changed6)
        let changed7 = model.setFormat(.rawPlusJPEG)
        #expect(!changed7)
        #expect(model.settings.format.label == "RAW+JPEG")
        let changed8 = model.setGeotag(true)
        #expect(changed8)
        #expect(model.settings.geotag)
        let changed9 = model.select(.focus)
        #expect(changed9)
        #expect(model.settings.selectedDial == .focus)
    }
}

/// Enhanced RAW among the formats: offered where RAW is and the board's stills are the
/// stream's frames; elsewhere its place is RAW's, with the reason.
@Suite("Enhanced RAW format")
struct EnhancedRawFormatTests {
    @Test func offeredBesideRawAndRememberedAsItsName() throws {
        let model = CameraModel(settings: CameraSettings(), limits: .unlimited)
        #expect(model.availableFormats == [.jpeg, .raw, .rawPlusJPEG, .enhancedRaw, .enhancedRawPlusJPEG])
        var settings = CameraSettings()
        try settings.set(.format, from: "enhanced-raw")
        #expect(settings.format == .enhancedRaw && settings.format.merges && settings.format.savesRaw && !settings.format.savesJPEG)
        try settings.set(.format, from: "enhanced-raw+jpeg")
        #expect(settings.format.savesJPEG && settings.format.merges)
        #expect(CaptureFormat.enhancedRaw.label == "ENHANCED RAW")
    }

    @Test func aBoardWhoseStillsSwitchModesOffersRawInsteadAndSaysWhy() {
        var limits = SensorLimits.unlimited
        limits.enhancedRawUnavailable = SensorLimits.stillsSwitchModes
        var saved = CameraSettings()
        saved.format = .enhancedRawPlusJPEG
        var model = CameraModel(settings: saved, limits: limits)
        #expect(model.settings.format == .rawPlusJPEG, "a remembered Enhanced RAW falls back to its plain format")
        #expect(model.availableFormats == [.jpeg, .raw, .rawPlusJPEG])
        let changed = model.setFormat(.enhancedRaw)
        #expect(!changed)
    }
}
