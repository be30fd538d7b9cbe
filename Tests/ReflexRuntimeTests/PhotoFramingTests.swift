import ReflexCore
@testable import ReflexRuntime
import Testing

/// A photo is framed as the viewfinder was at the press: the zoom, and where auto-zoom had
/// moved the crop.
@Suite("Photo framing")
struct PhotoFramingTests {
    @Test func aPhotoTakesTheCropTheViewfinderShowed() {
        #expect(PhotoDeveloper.crop(width: 1280, height: 720, framing: Framing(zoom: 1), frameZoom: 1) == nil)
        #expect(PhotoDeveloper.crop(width: 1280, height: 720, framing: Framing(zoom: 2), frameZoom: 1)
                == PixelRect(x: 320, y: 180, width: 640, height: 360))
        #expect(PhotoDeveloper.crop(width: 1280, height: 720, framing: Framing(zoom: 2, centreX: 0.7, centreY: 0.4), frameZoom: 1)
                == PixelRect(x: 576, y: 108, width: 640, height: 360))
        // The camera's own zoom did it all: the whole frame.
        #expect(PhotoDeveloper.crop(width: 1280, height: 720, framing: Framing(zoom: 2), frameZoom: 2) == nil)
    }

    @Test func itsCropStartsOnTheColourFiltersTiles() {
        let crop = PhotoDeveloper.crop(width: 1001, height: 999, framing: Framing(zoom: 3, centreX: 0.61, centreY: 0.37), frameZoom: 1)
        #expect(crop.map { $0.x % 2 == 0 && $0.y % 2 == 0 && $0.width % 2 == 0 && $0.height % 2 == 0 } == true)
    }
}
