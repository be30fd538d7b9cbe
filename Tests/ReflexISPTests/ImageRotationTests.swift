import ReflexCore
import ReflexISP
import Testing

@Suite("Panel rotation")
struct ImageRotationTests {
    /// A 5x3 picture whose pixels are their own coordinates, turned each way: every pixel
    /// lands where `panelPosition` says, and a quarter turn swaps the axes.
    @Test(arguments: PanelRotation.allCases)
    func everyPixelLandsWhereTheRotationSays(_ rotation: PanelRotation) {
        let width = 5, height = 3
        let picture = (0..<(width * height)).map { UInt32(($0 % width) << 8 | ($0 / width)) }
        let (panelWidth, panelHeight) = rotation.swapsAxes ? (height, width) : (width, height)
        let panelStride = panelWidth + 2  // a pitch wider than the row, as DRM buffers have
        var panel = [UInt32](repeating: 0xDEAD, count: panelStride * panelHeight)
        picture.withUnsafeBufferPointer { source in
            panel.withUnsafeMutableBufferPointer { target in
                rotation.copy(source.baseAddress!, width: width, height: height, sourceStride: width,
                              into: target.baseAddress!, panelStride: panelStride)
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let at = rotation.panelPosition(x: x, y: y, width: width, height: height)
                #expect(at.x >= 0 && at.x < panelWidth && at.y >= 0 && at.y < panelHeight)
                #expect(panel[at.y * panelStride + at.x] == UInt32(x << 8 | y), "\(rotation): (\(x), \(y))")
            }
        }
        #expect(panel.filter { $0 == 0xDEAD }.count == (panelStride - panelWidth) * panelHeight, "nothing past the rows")
    }

    @Test func aClockwiseQuarterTurnPutsTheTopLeftCornerTopRight() {
        #expect(PanelRotation.clockwise90.panelPosition(x: 0, y: 0, width: 1280, height: 800) == (799, 0))
        #expect(PanelRotation.upsideDown.panelPosition(x: 0, y: 0, width: 1280, height: 800) == (1279, 799))
        #expect(PanelRotation.clockwise270.panelPosition(x: 0, y: 0, width: 1280, height: 800) == (0, 1279))
    }
}

@Suite("Touches on a turned panel")
struct TouchRotationTests {
    /// A touch on a pixel's centre maps back to the centre of the upright pixel drawn there.
    @Test(arguments: PanelRotation.allCases)
    func aTouchFindsThePixelDrawnUnderIt(_ rotation: PanelRotation) {
        let width = 1280, height = 800
        for (x, y) in [(0, 0), (1279, 0), (10, 790), (640, 400), (1100, 748)] {
            let panel = rotation.panelPosition(x: x, y: y, width: width, height: height)
            let back = rotation.uprightPosition(panelX: Double(panel.x) + 0.5, panelY: Double(panel.y) + 0.5,
                                                width: width, height: height)
            #expect(abs(back.x - (Double(x) + 0.5)) < 1e-9 && abs(back.y - (Double(y) + 0.5)) < 1e-9,
                    "\(rotation): (\(x), \(y)) → \(panel) → \(back)")
        }
    }
}

extension PanelRotation {
    /// Where the logical pixel (x, y) of a `width` × `height` picture lands on the panel: the
    /// rule `ImageRotation` must follow, written out for the test (the camera only needs the
    /// inverse, `uprightPosition`, for touches).
    func panelPosition(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .none: (x, y)
        case .clockwise90: (height - 1 - y, x)
        case .upsideDown: (width - 1 - x, height - 1 - y)
        case .clockwise270: (y, width - 1 - x)
        }
    }
}
