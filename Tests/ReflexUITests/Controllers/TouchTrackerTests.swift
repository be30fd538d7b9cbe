@testable import ReflexUI
import ReflexCore
import Testing

/// The fingers on the panel: taps against drags, a dial dragged from where the finger came
/// down, two fingers on the picture pinching the zoom.
@Suite("Touch tracker")
struct TouchTrackerTests {
    static let density = PanelDensity(dotsPerInch: PanelDensity.pointsPerInch)

    @Test func aFingerThatStaysWithinTheSlopIsATap() throws {
        var touches = TouchTracker()
        touches.down(0, on: .format, x: 100, y: 100, zoom: 1)
        _ = touches.move(0, x: 104, y: 97, slop: 10, density: Self.density)
        let liftedTouch = touches.lift(0)
        let lifted = try #require(liftedTouch)
        #expect(!lifted.moved && lifted.target == .format && lifted.startX == 100)
        let again = touches.lift(0)
        #expect(again == nil, "lifted once")
    }

    @Test func aDragOnADialStartsItThenStepsItUpwards() throws {
        var touches = TouchTracker()
        touches.down(1, on: .dial(.iso), x: 200, y: 400, zoom: 1)
        let first = touches.move(1, x: 200, y: 385, slop: 10, density: Self.density)?.dial
        let start = try #require(first)
        #expect(start.dial == .iso && start.started)
        var steps = start.steps
        for y in stride(from: 380.0, through: 200, by: -10) {
            let next = touches.move(1, x: 200, y: y, slop: 10, density: Self.density)?.dial
            let step = try #require(next)
            #expect(!step.started)
            steps += step.steps
        }
        #expect(steps > 0, "upwards is up a stop")
        let lifted = touches.lift(1)
        #expect(lifted?.moved == true, "a drag is no tap")
    }

    @Test func twoFingersOnThePicturePinchTheZoom() throws {
        var touches = TouchTracker()
        touches.down(0, on: .picture, x: 500, y: 400, zoom: 2)
        #expect(!touches.isPinching)
        touches.down(1, on: .picture, x: 600, y: 400, zoom: 2)
        #expect(touches.isPinching)
        let motion = touches.move(1, x: 700, y: 400, slop: 10, density: Self.density)
        #expect(motion?.zoom == 4, "twice as far apart: twice the zoom it started at")
        let lifted = touches.lift(0)
        #expect(lifted?.moved == true, "neither finger of a pinch is a tap")
        #expect(!touches.isPinching, "it ends with its second finger")
    }
}
