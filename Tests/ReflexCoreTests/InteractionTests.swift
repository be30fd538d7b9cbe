import Testing
@testable import ReflexCore

@Suite("Dial input: touch drags and encoder detents")
struct DialInputTests {
    @Test func thresholdsScaleWithThePanelsDensity() {
        let at160 = DialDragAccumulator(dial: .focus, density: PanelDensity(dotsPerInch: 160))
        let at320 = DialDragAccumulator(dial: .focus, density: PanelDensity(dotsPerInch: 320))
        #expect(at160.thresholdPixels == 30)
        #expect(at320.thresholdPixels == 60)
    }

    @Test func dragDistanceAccumulatesAndTheRemainderCarries() {
        var drag = DialDragAccumulator(dial: .focus, density: PanelDensity(dotsPerInch: 160))
        #expect(drag.feed(upwardPixels: 20) == 0)
        #expect(drag.feed(upwardPixels: 20) == 1)    // 40 px: one step, 10 px left
        #expect(drag.feed(upwardPixels: 50) == 2)    // 60 px: two steps
        #expect(drag.pendingPixels == 0)
        #expect(drag.feed(upwardPixels: -95) == -3)  // down: negative steps, -5 px left
        #expect(drag.pendingPixels == -5)
        drag.reset()
        #expect(drag.pendingPixels == 0)
    }

    @Test func manySmallMovesGiveTheSameStepsAsOneBigOne() {
        var fine = DialDragAccumulator(dial: .iso, density: PanelDensity(dotsPerInch: 217))
        var total = 0
        for _ in 0..<1000 { total += fine.feed(upwardPixels: 0.7) }
        var coarse = DialDragAccumulator(dial: .iso, density: PanelDensity(dotsPerInch: 217))
        #expect(total == coarse.feed(upwardPixels: 700))
    }

    @Test func encoderDetentsAreOneStepEachAndHighResolutionFractionsAddUp() {
        var detents = DetentAccumulator()
        #expect(detents.feed(v120: 120) == 1)
        #expect(detents.feed(v120: -240) == -2)
        #expect(detents.feed(v120: 30) == 0)
        #expect(detents.feed(v120: 30) == 0)
        #expect(detents.feed(v120: 60) == 1)
        #expect(detents.pendingUnits == 0)
    }
}

@Suite("Controls fade (docs/camera.md, Auto and Pro)")
struct ControlsFadeTests {
    @Test func fullOpacityForThreeSecondsThenThirtyPercent() {
        let fade = ControlsFade(now: 100)
        #expect(fade.opacity(at: 100) == 1)
        #expect(fade.opacity(at: 102.99) == 1)
        #expect(fade.opacity(at: 103) == 1)
        #expect(fade.opacity(at: 103.15) > 0.3)
        #expect(fade.opacity(at: 103.15) < 1)
        #expect(fade.opacity(at: 103.31) == 0.3)
        #expect(fade.opacity(at: 200) == 0.3)
        #expect(!fade.isFaded(at: 103.29))
        #expect(fade.isFaded(at: 103.31))
    }

    @Test func aTouchOrDialTurnBringsThemBackAtOnce() {
        var fade = ControlsFade(now: 0)
        #expect(fade.opacity(at: 10) == 0.3)
        fade.interact(at: 10)
        #expect(fade.opacity(at: 10) == 1)
        #expect(fade.opacity(at: 12.9) == 1)
        #expect(fade.opacity(at: 13.31) == 0.3)
    }
}

@Suite("Zoom ramp (docs/camera.md, The controls)")
struct ZoomRampTests {
    @Test func holdingZoomInDoublesEachSecond() {
        var zoom = ZoomRamp(range: 1...10)
        zoom.press(.zoomIn, at: 5)
        #expect(zoom.factor(at: 5) == 1)
        #expect(abs(zoom.factor(at: 6) - 2) < 1e-12)
        #expect(abs(zoom.factor(at: 6.5) - 2.828_427_124_746_19) < 1e-12)
        #expect(abs(zoom.factor(at: 7) - 4) < 1e-12)
    }

    @Test func itStopsAtTheBoundsOfTheRange() {
        var zoom = ZoomRamp(range: 1...10)
        zoom.press(.zoomIn, at: 0)
        #expect(zoom.factor(at: 3.5) == 10)
        #expect(zoom.factor(at: 100) == 10)
        zoom.release(at: 100)
        zoom.press(.zoomOut, at: 100)
        #expect(abs(zoom.factor(at: 101) - 5) < 1e-12)
        #expect(zoom.factor(at: 110) == 1)
    }

    @Test func releaseHoldsTheValueReached() {
        var zoom = ZoomRamp(range: 0.5...8, factor: 1)
        zoom.press(.zoomIn, at: 0)
        zoom.release(at: 1.5)
        let held = zoom.factor(at: 1.5)
        #expect(abs(held - 2.828_427_124_746_19) < 1e-12)
        #expect(zoom.factor(at: 60) == held)
        #expect(!zoom.isRamping)
    }

    @Test func reversingMidRampContinuesFromWhereItIs() {
        var zoom = ZoomRamp(range: 0.5...8, factor: 1)
        zoom.press(.zoomIn, at: 0)
        zoom.press(.zoomOut, at: 2)
        #expect(abs(zoom.factor(at: 2) - 4) < 1e-12)
        #expect(abs(zoom.factor(at: 4) - 1) < 1e-12)
        #expect(abs(zoom.factor(at: 5) - 0.5) < 1e-12)
    }

    @Test func fastMathIsAccurate() {
        for (x, expected) in [(0.0, 1.0), (1, 2), (-1, 0.5), (0.5, 1.414_213_562_373_095), (10, 1024), (-3.25, 0.105_112_051_906_714_33)] {
            #expect(abs(FastMath.exp2(x) - expected) / expected < 1e-14, "2^\(x)")
        }
        for (x, expected) in [(1.0, 0.0), (2, 1), (0.5, -1), (10, 3.321_928_094_887_362), (1e-6, -19.931_568_569_324_174)] {
            #expect(abs(FastMath.log2(x) - expected) < 1e-13, "log2 \(x)")
        }
        #expect(abs(FastMath.pow(0.5, 1 / 2.4) - 0.749_153_538_438_340_9) < 1e-13)
        #expect(FastMath.pow(0, 2) == 0)
        for (x, expected) in [(0.0, 1.0), (Double.pi, -1), (Double.pi / 3, 0.5), (-2.0, -0.416_146_836_547_142_4),
                              (100.0, 0.862_318_872_287_683_9)] {
            #expect(abs(FastMath.cos(x) - expected) < 1e-13, "cos \(x)")
        }
    }
}
