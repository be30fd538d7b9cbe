import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// The Photo/Video switch, the record button and the record key.
@Suite struct RecordControlTests {
    typealias T = InterfaceControllerTests

    @Test func theSwitchMakesTheShutterARecordButton() {
        var c = T.controller()
        var outcome = T.tap(&c, T.layout.captureToggle, at: 1)
        #expect(outcome.settingsChanged && outcome.confirmed)
        #expect(c.model.settings.capture == .video)
        // The shutter button records (no photo, no burst), and is felt as the shutter.
        let (x, y) = T.centre(T.layout.shutterButton)
        outcome = c.handle(.touchDown(slot: 0, x: x, y: y), at: 2, metered: T.metered)
        #expect(outcome.record && outcome.capture == nil && outcome.haptic == .shutter)
        _ = c.handle(.touchUp(slot: 0), at: 2.05, metered: T.metered)
        #expect(c.nextBurstPhoto(at: 3) == nil)
        // So does the shutter key's full press.
        outcome = c.handle(.key(code: c.controls.shutterKeys.full, pressed: true), at: 4, metered: T.metered)
        #expect(outcome.record && outcome.capture == nil)
        _ = c.handle(.key(code: c.controls.shutterKeys.full, pressed: false), at: 4.1, metered: T.metered)
        // Back to Photo: the shutter takes photos again.
        _ = T.tap(&c, T.layout.captureToggle, at: 5)
        outcome = c.handle(.touchDown(slot: 0, x: x, y: y), at: 6, metered: T.metered)
        #expect(!outcome.record && outcome.capture == 6)
    }

    @Test func theRecordKeyRecordsInPhotoAndInVideo() {
        var c = T.controller()
        var outcome = c.handle(.key(code: KeyCode.record, pressed: true), at: 1, metered: T.metered)
        #expect(outcome.record && outcome.capture == nil)
        outcome = c.handle(.key(code: KeyCode.record, pressed: false), at: 1.1, metered: T.metered)
        #expect(!outcome.record)
        var video = CameraSettings()
        video.capture = .video
        c = T.controller(video)
        outcome = c.handle(.key(code: KeyCode.record, pressed: true), at: 1, metered: T.metered)
        #expect(outcome.record)
    }

    @Test func theSwitchHoldsWhileAMovieRecords() {
        var video = CameraSettings()
        video.capture = .video
        var c = T.controller(video)
        c.recording = true
        let outcome = T.tap(&c, T.layout.captureToggle, at: 1)
        #expect(!outcome.settingsChanged && outcome.notice == InterfaceText.stopRecordingFirst)
        #expect(c.model.settings.capture == .video)
    }

    @Test func theSwitchSitsAboveTheShutterClearOfEverythingElse() {
        let layout = T.layout
        let toggle = layout.captureToggle
        #expect(toggle.y + toggle.height <= layout.shutterButton.y)
        #expect(toggle.y >= layout.histogram.y + layout.histogram.height)
        #expect(toggle.x + toggle.width <= layout.width)
    }
}
