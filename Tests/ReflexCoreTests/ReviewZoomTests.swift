import ReflexCore
import Testing

/// Review's zoom to check focus (issue 34): from the whole photo to 100 % where tapped, a
/// pinch about the fingers, the dial's steps, a drag that never shows a gap it could fill.
@Suite struct ReviewZoomTests {
    /// A 12 MP photo on a 1280×800 panel: the whole photo at 0.263.
    static func zoom() -> ReviewZoom { ReviewZoom(photoWidth: 4056, photoHeight: 3040, screenWidth: 1280, screenHeight: 800) }

    @Test func theWholePhotoFirstThen100PercentWhereTapped() {
        var zoom = Self.zoom()
        #expect(abs(zoom.fitScale - 800.0 / 3040) < 1e-9 && zoom.isWholePhoto)
        #expect(zoom.visible == PixelRect(x: 0, y: 0, width: 4056, height: 3040))
        // A tap on the screen's upper left shows the photo's upper left at 100 %, the screen filled.
        zoom.doubleTap(screenX: 200, y: 100)
        #expect(zoom.scale == 1)
        #expect(zoom.visible == PixelRect(x: 0, y: 0, width: 1280, height: 800))
        // A tap in the middle: centred there.
        var middle = Self.zoom()
        middle.doubleTap(screenX: 640, y: 400)
        #expect(middle.visible == PixelRect(x: 1388, y: 1120, width: 1280, height: 800))
        middle.doubleTap(screenX: 10, y: 10)
        #expect(middle.isWholePhoto)
    }

    @Test func aPinchKeepsThePointUnderTheFingersAndStaysInItsRange() {
        var zoom = Self.zoom()
        zoom.doubleTap(screenX: 640, y: 400)
        let before = zoom.photoPoint(screenX: 700, y: 420)
        zoom.pinch(by: 1.5, screenX: 700, y: 420)
        let after = zoom.photoPoint(screenX: 700, y: 420)
        #expect(zoom.scale == 1.5 && abs(after.x - before.x) < 1e-6 && abs(after.y - before.y) < 1e-6)
        zoom.pinch(by: 10, screenX: 700, y: 420)
        #expect(zoom.scale == ReviewZoom.mostScale)
        zoom.pinch(by: 0.001, screenX: 700, y: 420)
        #expect(zoom.isWholePhoto)
    }

    @Test func theDialStepsAndADragStopsAtTheEdges() {
        var zoom = Self.zoom()
        zoom.turn(1)
        #expect(zoom.scale == 0.5)
        zoom.turn(1)
        #expect(zoom.scale == 1)
        zoom.turn(5)
        #expect(zoom.scale == 2)
        zoom.turn(-9)
        #expect(zoom.isWholePhoto)
        zoom.turn(2)
        zoom.drag(byScreenX: 100_000, y: 100_000)
        #expect(zoom.visible.x == 0 && zoom.visible.y == 0)
        zoom.drag(byScreenX: -100_000, y: -100_000)
        #expect(zoom.visible.x + zoom.visible.width == 4056 && zoom.visible.y + zoom.visible.height == 3040)
    }

    /// A photo smaller than the screen is shown at most at 200 % of its pixels, centred.
    @Test func aSmallPhotoStaysCentred() {
        var zoom = ReviewZoom(photoWidth: 320, photoHeight: 240, screenWidth: 1280, screenHeight: 800)
        #expect(zoom.fitScale > 2 && zoom.isWholePhoto)
        zoom.drag(byScreenX: 300, y: 300)
        #expect(zoom.visible == PixelRect(x: 0, y: 0, width: 320, height: 240))
    }
}
