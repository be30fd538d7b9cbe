import ReflexCore
import ReflexISP
import ReflexUI
import Testing

/// Touch on the picture (issue: controls, part 2): in Auto a tap meters on a spot and a
/// double tap or a change of mode meters the whole frame again; two fingers pinch the zoom.
@Suite struct TouchOnThePictureTests {
    typealias Rig = InterfaceControllerTests
    static let layout = Rig.layout
    static let metered = Rig.metered

    static func tapPicture(_ c: inout InterfaceController, x: Double, y: Double, at t: Double) -> InterfaceController.Outcome {
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: t, metered: metered)
        return c.handle(.touchUp(slot: 0), at: t + 0.05, metered: metered)
    }

    /// A point on the picture in the viewfinder at (fx, fy) of its width and height.
    static func onPicture(_ fx: Double, _ fy: Double) -> (Double, Double) {
        let v = layout.viewfinder
        return (Double(v.x) + fx * Double(v.width), Double(v.y) + fy * Double(v.height))
    }

    @Test func aTapInAutoMetersOnThatSpotWithATick() throws {
        var c = Rig.controller()
        let (x, y) = Self.onPicture(0.25, 0.5)
        let outcome = Self.tapPicture(&c, x: x, y: y, at: 1)
        #expect(outcome.settingsChanged)
        #expect(outcome.haptic == .tick)
        let point = try #require(c.model.settings.meteringPoint)
        #expect(abs(point.x - 0.25) < 0.01 && abs(point.y - 0.5) < 0.01)
        // Another tap, later, moves it.
        let (x2, y2) = Self.onPicture(0.8, 0.3)
        _ = Self.tapPicture(&c, x: x2, y: y2, at: 3)
        let moved = try #require(c.model.settings.meteringPoint)
        #expect(abs(moved.x - 0.8) < 0.01)
    }

    @Test func aDoubleTapOrAChangeOfModeMetersTheWholeFrameAgain() {
        var c = Rig.controller()
        let (x, y) = Self.onPicture(0.25, 0.5)
        _ = Self.tapPicture(&c, x: x, y: y, at: 1)
        #expect(c.model.settings.meteringPoint != nil)
        _ = Self.tapPicture(&c, x: x, y: y, at: 2)
        let second = Self.tapPicture(&c, x: x, y: y, at: 2.2)
        #expect(c.model.settings.meteringPoint == nil, "the double tap's second tap")
        #expect(second.haptic == .confirm)
        _ = Self.tapPicture(&c, x: x, y: y, at: 5)
        #expect(c.model.settings.meteringPoint != nil)
        _ = Rig.tap(&c, Self.layout.modeToggle, at: 7)  // to Pro
        #expect(c.model.settings.meteringPoint == nil)
        _ = Self.tapPicture(&c, x: x, y: y, at: 9)
        #expect(c.model.settings.meteringPoint == nil, "Pro meters by its dials, not by a tap")
    }

    @Test func aTapOnTheZoomedPictureMetersWhatIsUnderTheFinger() throws {
        var c = Rig.controller()
        _ = c.handle(.key(code: KeyCode.zoomIn, pressed: true), at: 0, metered: Self.metered)
        _ = c.handle(.key(code: KeyCode.zoomIn, pressed: false), at: 1, metered: Self.metered)  // 2×
        #expect(abs(c.zoom.factor(at: 2) - 2) < 0.01)
        let (x, y) = Self.onPicture(0, 0.5)  // the left edge of a 2× picture: a quarter of the frame
        _ = Self.tapPicture(&c, x: x, y: y, at: 2)
        let point = try #require(c.model.settings.meteringPoint)
        #expect(abs(point.x - 0.25) < 0.01, "\(point)")
        // And it is drawn there: the box's centre back under the finger.
        let box = try #require(point.box(viewfinder: Self.layout.viewfinder, zoom: 2))
        #expect(abs(Double(box.x + box.width / 2) - x) <= Double(box.width / 2) + 1)
    }

    @Test func twoFingersSpreadTwiceAsFarApartZoomTwice() {
        var c = Rig.controller()
        let (cx, cy) = Self.onPicture(0.5, 0.5)
        _ = c.handle(.touchDown(slot: 0, x: cx - 50, y: cy), at: 1, metered: Self.metered)
        _ = c.handle(.touchDown(slot: 1, x: cx + 50, y: cy), at: 1.01, metered: Self.metered)
        for step in 1...10 {
            let half = 50 + 5 * Double(step)
            _ = c.handle(.touchMotion(slot: 0, x: cx - half, y: cy), at: 1.02 + Double(step) * 0.02, metered: Self.metered)
            _ = c.handle(.touchMotion(slot: 1, x: cx + half, y: cy), at: 1.03 + Double(step) * 0.02, metered: Self.metered)
        }
        #expect(abs(c.zoom.factor(at: 2) - 2) < 0.01, "\(c.zoom.factor(at: 2))")
        // Pinching in past 1× stops at 1×; neither finger lifting is a tap.
        _ = c.handle(.touchMotion(slot: 0, x: cx - 5, y: cy), at: 1.5, metered: Self.metered)
        _ = c.handle(.touchMotion(slot: 1, x: cx + 5, y: cy), at: 1.51, metered: Self.metered)
        #expect(c.zoom.factor(at: 2) == 1)
        let up0 = c.handle(.touchUp(slot: 0), at: 1.6, metered: Self.metered)
        let up1 = c.handle(.touchUp(slot: 1), at: 1.61, metered: Self.metered)
        #expect(!up0.settingsChanged && !up1.settingsChanged && c.model.settings.meteringPoint == nil)
    }
}
