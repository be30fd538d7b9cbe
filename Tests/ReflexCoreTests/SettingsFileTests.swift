import Testing
@testable import ReflexCore

@Suite("The settings file's text form")
struct SettingsFileTests {
    static var proSettings: CameraSettings {
        var settings = CameraSettings()
        settings.setMode(.pro)
        settings.format = .rawPlusJPEG
        settings.geotag = true
        settings.geotagPrecision = .approximate
        settings.iso = .manual(ISOSpeed(800))
        settings.shutter = .manual(ShutterSpeed(3, 10))
        settings.focus = .manual(FocusPosition(0.35))
        settings.whiteBalance = .kelvin(4300)
        settings.selectedDial = .focus
        settings.exposureCompensation = ExposureCompensation(thirds: -4)
        return settings
    }

    func decode(_ text: String) -> Result<SettingsFile.Decoded, SettingsFile.Problem> {
        SettingsFile.decode(Array(text.utf8))
    }

    @Test func encodedSettingsDecodeToTheSameSettings() throws {
        for settings in [CameraSettings.firstStart, Self.proSettings] {
            let decoded = try decode(SettingsFile.encode(settings)).get()
            #expect(decoded.settings == settings)
            #expect(decoded.unknownKeys.isEmpty)
        }
    }

    @Test func theFileIsReadableByAPerson() {
        let text = SettingsFile.encode(Self.proSettings)
        #expect(text.contains("reflex-settings 1\n"))
        #expect(text.contains("mode = pro\n"))
        #expect(text.contains("shutter = 0.3\"\n"))
        #expect(text.contains("white-balance = 4300K\n"))
        #expect(text.hasSuffix("end\n"))
    }

    @Test func everyTruncationIsRecognised() {
        let bytes = Array(SettingsFile.encode(Self.proSettings).utf8)
        // Cut anywhere before the end line is complete: never accepted as settings.
        let endStart = bytes.count - "end\n".count
        for length in 0..<(endStart + 2) {
            let result = SettingsFile.decode(Array(bytes[..<length]))
            if case .success = result { Issue.record("a file cut to \(length) bytes was accepted") }
        }
        if case .failure(let problem) = SettingsFile.decode(Array(bytes[..<endStart])) {
            #expect(problem == .truncated)
        }
    }

    @Test func emptyGarbageAndBinaryAreRefusedWithAReason() {
        #expect(decode("") == .failure(.empty))
        #expect(decode("hello world\n") == .failure(.missingHeader(firstLine: "hello world")))
        #expect(SettingsFile.decode([0x72, 0x00, 0xff, 0xfe]) == .failure(.notText))
        #expect(decode("reflex-settings one\nend\n") == .failure(.unsupportedVersion("one")))
        #expect(decode("reflex-settings 1\nmode pro\nend\n") == .failure(.malformedLine(number: 2, text: "mode pro")))
        #expect(decode("reflex-settings 1\nmode = pro\nmode = auto\nend\n") == .failure(.duplicateKey(.mode)))
        #expect(decode("reflex-settings 1\nend\nmode = pro\n") == .failure(.textAfterEnd(number: 3)))
        #expect(decode("reflex-settings 1\niso = 400\nend\n") == .failure(.manualValueInAutoMode(.iso)))
        let huge = [UInt8](repeating: 0x41, count: SettingsFile.maximumBytes + 1)
        #expect(SettingsFile.decode(huge) == .failure(.tooLarge(bytes: SettingsFile.maximumBytes + 1)))
        guard case .failure(.badValue(let error)) = decode("reflex-settings 1\nmode = pro\niso = 450\nend\n") else {
            Issue.record("ISO 450 was accepted")
            return
        }
        #expect(error.key == .iso)
        #expect(error.description.contains("450"))
    }

    @Test func missingKeysKeepDefaultsAndUnknownKeysAreReported() throws {
        let decoded = try decode("reflex-settings 2\r\nmode = pro\r\n  future-key = 7  \r\nend\r\n").get()
        var expected = CameraSettings()
        expected.setMode(.pro)
        #expect(decoded.settings == expected)
        #expect(decoded.unknownKeys == ["future-key"])
    }

    @Test func keysMayComeInAnyOrder() throws {
        let decoded = try decode("reflex-settings 1\niso = 400\nmode = pro\nend\n").get()
        #expect(decoded.settings.iso == .manual(ISOSpeed(400)))
    }
}

@Suite("Settings keys: one spelling for the file and the command")
struct SettingsKeyTests {
    @Test func everyKeyRoundTripsEveryValue() throws {
        let samples: [SettingsKey: [String]] = [
            .mode: ["auto", "pro"],
            .capture: ["photo", "video"],
            .format: ["jpeg", "raw", "raw+jpeg"],
            .geotag: ["on", "off"],
            .geotagPrecision: ["precise", "approximate"],
            .geotagConsent: ["on", "off"],
            .iso: ["auto"] + ISOSpeed.stopTable.map { String($0.value) },
            .shutter: ["auto"] + ShutterSpeed.stopTable.map(\.description),
            .focus: ["auto", "0", "0.5", "0.123", "1"],
            .whiteBalance: ["auto", "sunny", "cloudy", "shade", "tungsten", "fluorescent", "2000K", "10000K"],
            .dial: ["iso", "shutter", "focus", "wb"],
            .exposureCompensation: ["0", "+1/3", "-2/3", "+1", "-1 1/3", "+3", "-3"],
            .zebras: ["on", "off"],
            .focusPeaking: ["on", "off"],
            .framingGrid: ["on", "off"],
            .jpegQuality: ["extra-fine", "fine", "normal"],
            .autoZoom: ["on", "off"],
            .remote: ["on", "off"],
            .usb: ["files", "tethered", "off"],
            .autoZoomFraming: ["tight", "medium", "wide"],
            .drive: ["single", "burst", "self-timer", "bracketing", "interval"],
            .selfTimer: ["2s", "10s", "10s-3"],
            .bracketFrames: ["3", "5", "7"],
            .bracketStep: ["1/3", "2/3", "1", "1 1/3", "2 2/3", "3"],
            .interval: ["1s", "5s", "1m", "1m30s", "2h", "1h5m20s", "24h"],
            .intervalCount: ["1", "300", "9999", "unlimited"],
            .intervalDelay: ["0s", "10s", "5m", "24h"],
            .timelapse: ["off", "24", "25", "30"],
        ]
        #expect(Set(samples.keys) == Set(SettingsKey.allCases))
        for (key, values) in samples {
            for value in values {
                var settings = CameraSettings()
                settings.setMode(.pro)
                try settings.set(key, from: value)
                #expect(settings.value(of: key) == value, "\(key.rawValue) = \(value)")
            }
        }
    }

    @Test func badValuesAreRefusedWithTheAllowedOnes() {
        let bad: [(SettingsKey, String)] = [
            (.mode, "manual"), (.format, "heic"), (.geotag, "maybe"), (.geotagPrecision, "exact"),
            (.iso, "450"), (.iso, "-100"), (.shutter, "1/300"), (.shutter, "2\""), (.focus, "1.5"),
            (.focus, "near"), (.whiteBalance, "1500K"), (.whiteBalance, "daylight"), (.dial, "zoom"),
            (.exposureCompensation, "+4"), (.exposureCompensation, "+1/2"), (.exposureCompensation, "bright"),
            (.timelapse, "60"), (.timelapse, "on"),
        ]
        for (key, value) in bad {
            var settings = CameraSettings()
            settings.setMode(.pro)
            #expect(throws: SettingsValueError.self, "\(key.rawValue) = \(value)") {
                try settings.set(key, from: value)
            }
            do {
                try settings.set(key, from: value)
            } catch {
                #expect(error.description.contains(key.allowedValues))
            }
        }
    }

    @Test func settingModeAutoClearsManualValues() throws {
        var settings = SettingsFileTests.proSettings
        try settings.set(.mode, from: "auto")
        #expect(!settings.hasManualParameters)
        #expect(settings.checkModeRule() == nil)
        settings.iso = .manual(ISOSpeed(200))
        #expect(settings.checkModeRule() == .iso)
    }
}
