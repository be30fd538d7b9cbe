import ReflexCore
import Testing

@Suite struct MeteringPointTests {
    @Test func theSpotLiesInsideTheFrameWhereverTheTap() {
        let centre = MeteringPoint(x: 0.5, y: 0.5).rect(width: 640, height: 360)
        #expect(centre == PixelRect(x: 291, y: 151, width: 58, height: 58))
        let corner = MeteringPoint(x: 0, y: 1).rect(width: 640, height: 360)
        #expect(corner.x == 0 && corner.y + corner.height == 360)
        #expect(MeteringPoint(x: .nan, y: 7).y == 1)
    }

    @Test func aTouchOutsideThePictureIsNoPoint() {
        let viewfinder = PixelRect(x: 107, y: 0, width: 1067, height: 800)
        #expect(MeteringPoint.under(touchX: 50, touchY: 400, viewfinder: viewfinder, zoom: 1) == nil)
        #expect(MeteringPoint.under(touchX: 640.5, touchY: 400, viewfinder: viewfinder, zoom: 3) == MeteringPoint(x: 0.5, y: 0.5))
    }

    @Test func aSpotZoomedOutOfThePictureHasNoBox() {
        let viewfinder = PixelRect(x: 0, y: 0, width: 1280, height: 720)
        #expect(MeteringPoint(x: 0.05, y: 0.5).box(viewfinder: viewfinder, zoom: 4) == nil)
        #expect(MeteringPoint(x: 0.5, y: 0.5).box(viewfinder: viewfinder, zoom: 1)?.width == 116, "0.16 of 720 rows")
    }

    /// Auto-zoom's crop moved right of the middle: the spot stays on what it meters.
    @Test func theSpotFollowsACropOffTheMiddle() throws {
        let viewfinder = PixelRect(x: 0, y: 0, width: 1280, height: 720)
        let framing = Framing(zoom: 2, centreX: 0.7, centreY: 0.5)
        let box = try #require(MeteringPoint(x: 0.7, y: 0.5).box(viewfinder: viewfinder, framing: framing))
        #expect(abs(box.x + box.width / 2 - 640) <= 1 && abs(box.y + box.height / 2 - 360) <= 1, "in the middle: \(box)")
        #expect(box.height == 230, "0.16 of 720 rows at 2x")
        #expect(MeteringPoint(x: 0.3, y: 0.5).box(viewfinder: viewfinder, framing: framing) == nil, "left of the crop")
    }
}
