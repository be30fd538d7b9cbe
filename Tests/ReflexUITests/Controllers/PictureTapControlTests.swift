@testable import ReflexUI
import ReflexCore
import Testing

/// A tap on the picture: metering in Auto, auto-zoom's subject when it is on, a double tap
/// undoing either, nothing in Pro without auto-zoom.
@Suite("Picture tap control")
struct PictureTapControlTests {
    static let viewfinder = PixelRect(x: 0, y: 0, width: 1280, height: 720)

    static func model(_ mode: ShootingMode) -> CameraModel {
        var settings = CameraSettings()
        settings.mode = mode
        return CameraModel(settings: settings, limits: .unlimited)
    }

    @Test func inAutoATapMetersThereAndADoubleTapTheWholeFrame() {
        var taps = PictureTapControl(), model = Self.model(.auto), outcome = InterfaceController.Outcome()
        taps.tap(x: 320, y: 360, at: 1, model: &model, autoZoomOn: false, viewfinder: Self.viewfinder, zoom: 1, into: &outcome)
        #expect(model.settings.meteringPoint != nil && outcome.settingsChanged)
        taps.tap(x: 320, y: 360, at: 1.2, model: &model, autoZoomOn: false, viewfinder: Self.viewfinder, zoom: 1, into: &outcome)
        #expect(model.settings.meteringPoint == nil, "a double tap: the whole frame again")
    }

    @Test func withAutoZoomOnATapChoosesTheSubjectInItsFractions() throws {
        var taps = PictureTapControl(), model = Self.model(.pro), outcome = InterfaceController.Outcome()
        taps.tap(x: 320, y: 360, at: 1, model: &model, autoZoomOn: true, viewfinder: Self.viewfinder, zoom: 1, into: &outcome)
        let chosen = try #require(outcome.subjectTap)
        #expect(chosen.x == 0.25 && chosen.y == 0.5 && model.settings.meteringPoint == nil)
        taps.tap(x: 320, y: 360, at: 1.2, model: &model, autoZoomOn: true, viewfinder: Self.viewfinder, zoom: 1, into: &outcome)
        #expect(outcome.subjectTap?.x == -1, "a double tap gives the choice back")
    }

    @Test func inProWithoutAutoZoomATapDoesNothing() {
        var taps = PictureTapControl(), model = Self.model(.pro), outcome = InterfaceController.Outcome()
        taps.tap(x: 320, y: 360, at: 1, model: &model, autoZoomOn: false, viewfinder: Self.viewfinder, zoom: 1, into: &outcome)
        #expect(outcome == InterfaceController.Outcome() && model.settings.meteringPoint == nil)
    }
}
