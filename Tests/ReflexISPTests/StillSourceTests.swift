import ReflexISP
import Testing

/// The board's word on where photos come from, when its preview streams a smaller mode.
@Suite struct StillSourceTests {
    @Test func withoutAStillSizePhotosAreThePreviewStreamsFrames() throws {
        let calibration = try SensorCalibration.parse("preview-size = 1920x1080\n").get()
        #expect(calibration.stillSource == .preview)
        #expect(calibration.streamWidth == 1920 && calibration.streamHeight == 1080)
        // A still size no larger than the preview's is the preview stream too.
        let same = try SensorCalibration.parse("preview-size = 1920x1080\nstill-size = 1920x1080\nstills = switch\n").get()
        #expect(same.stillSource == .preview)
    }

    @Test func aStillSizeIsReachedBySwitchingUnlessTheBoardStreamsIt() throws {
        let switching = try SensorCalibration.parse("preview-size = 1332x990\nstill-size = 4056x3040\n").get()
        #expect(switching.stillSource == .modeSwitch, "switch is the default")
        #expect(switching.streamWidth == 1332, "the preview's mode streams")
        let streaming = try SensorCalibration.parse("preview-size = 1332x990\nstill-size = 4056x3040\nstills = stream\n").get()
        #expect(streaming.stillSource == .stream)
        #expect(streaming.streamWidth == 4056 && streaming.streamHeight == 3040, "the full-resolution mode streams")
        let skipping = try SensorCalibration.parse("still-size = 4056x3040\nstill-skip-frames = 2\n").get()
        #expect(skipping.stillSkipFrames == 2)
        #expect(try SensorCalibration.parse("frame-memory-mb = 256\n").get().frameMemoryBytes == 256 << 20, "a board's cap")
    }

    @Test func badValuesAreRefusedWithTheirLine() {
        for text in ["stills = sometimes\n", "stills = preview\n", "still-size = 4056\n", "still-skip-frames = 99\n",
                     "frame-memory-mb = 2\n"] {
            #expect((try? SensorCalibration.parse(text).get()) == nil, "\(text) refused")
        }
    }
}
