import Foundation
import ReflexCore
import Testing

/// Auto-zoom's framing rule, driven frame by frame with the time injected.
@Suite("Auto-framing")
struct AutoFramingTests {
    static let frame = 1.0 / 60

    /// Runs the rule from `start` for `seconds` at 60 frames a second, the subject given by
    /// `subject(t)`; each frame's framing with its time.
    static func run(_ rule: inout AutoFraming, from start: Double = 0, seconds: Double,
                    extent: FractionalBox = Framing.wholePicture,
                    subject: (Double) -> AutoFraming.Subject?) -> [(time: Double, framing: Framing)] {
        var frames: [(Double, Framing)] = []
        let count = Int((seconds / frame).rounded())
        for index in 1...count {
            let time = start + Double(index) * frame
            frames.append((time, rule.update(subject: subject(time), extent: extent, at: time)))
        }
        return frames
    }

    static func person(height: Double, centreX: Double = 0.5, centreY: Double = 0.5, velocityX: Double = 0)
        -> AutoFraming.Subject {
        AutoFraming.Subject(box: FractionalBox(centreX: centreX, centreY: centreY, width: height * 0.4, height: height),
                            velocityX: velocityX)
    }

    /// The zoom's speed between two frames, in doublings a second.
    static func speeds(_ frames: [(time: Double, framing: Framing)]) -> [Double] {
        zip(frames, frames.dropFirst()).map { log2($1.framing.zoom / $0.framing.zoom) / ($1.time - $0.time) }
    }

    @Test func aSmallStillSubjectIsZoomedToItsFractionNoFasterThanTheRamp() {
        var rule = AutoFraming(range: 1...8, size: .medium)
        let frames = Self.run(&rule, seconds: 5) { _ in Self.person(height: 0.1) }
        let zoom = frames.last!.framing.zoom
        #expect(abs(zoom - 5) / 5 < 0.05, "a person a tenth of the picture high fills half of it at 5x, got \(zoom)")
        let fastest = Self.speeds(frames).map(abs).max()!
        #expect(fastest <= AutoFraming.maximumDoublingsPerSecond + 1e-9, "never faster than doubling in a second")
        #expect(fastest > 0.9, "the ramp's speed is used on a long way")
        #expect(rule.phase == .following)
    }

    @Test func theZoomSpeedsUpAndSlowsDownSmoothly() {
        var rule = AutoFraming(range: 1...8, size: .medium)
        let frames = Self.run(&rule, seconds: 5) { _ in Self.person(height: 0.1) }
        let speeds = Self.speeds(frames)
        for (before, after) in zip(speeds, speeds.dropFirst()) {
            #expect(abs(after - before) <= AutoFraming.zoomAcceleration * Self.frame + 1e-6)
        }
        #expect(abs(speeds.last!) < 0.05, "at rest once framed")
    }

    @Test func aNearlyFramedSubjectDoesNotMoveTheZoomHoweverTheDetectorJitters() {
        var rule = AutoFraming(range: 1...8, size: .medium, framing: Framing(zoom: 4))
        // Framed at 4x is a height of 0.125; the detector's box jitters by ±8 %.
        var reversals = ZoomReversalCounter()
        let frames = Self.run(&rule, seconds: 10) { time in
            let jitter = 1 + 0.08 * sin(time * 37.0) * cos(time * 5.0)
            return Self.person(height: 0.125 * jitter)
        }
        for (_, framing) in frames { reversals.record(zoom: framing.zoom) }
        #expect(frames.allSatisfy { $0.framing.zoom == 4 }, "inside the dead band the zoom stays")
        #expect(reversals.reversals == 0)
    }

    @Test func aZoomThatSettledDoesNotTurnBackForABoxReadSmallForASecond() {
        // Zoomed out after a subject that came nearer, then settled on it: a detector reading
        // its height 17 % smaller for a second (a stride) is no reason to zoom back in.
        var rule = AutoFraming(range: 1...8, size: .medium, framing: Framing(zoom: 2))
        var reversals = ZoomReversalCounter()
        var frames = Self.run(&rule, seconds: 4) { _ in Self.person(height: 0.5) }
        #expect(abs(frames.last!.framing.zoom - 1) < 0.05, "zoomed out to frame a subject half the picture high")
        frames += Self.run(&rule, from: 4, seconds: 2) { _ in Self.person(height: 0.5 / 1.2) }
        for (_, framing) in frames { reversals.record(zoom: framing.zoom) }
        #expect(reversals.reversals == 0, "the zoom stays: \(frames.last!.framing.zoom)")
        // Truly smaller (gone a third further away): the zoom follows back in.
        let away = Self.run(&rule, from: 6, seconds: 3) { _ in Self.person(height: 0.5 / 1.5) }
        #expect(abs(away.last!.framing.zoom - 1.5) < 0.1, "zoomed back in, got \(away.last!.framing.zoom)")
    }

    @Test func aMovingSubjectStaysInTheMiddleThirdWithRoomAhead() {
        var rule = AutoFraming(range: 1...8, size: .wide, framing: Framing(zoom: 2))
        // Walking right at a tenth of the picture a second, framed at 2x (a crop half wide).
        let frames = Self.run(&rule, seconds: 4) { time in
            Self.person(height: 0.15, centreX: 0.3 + 0.1 * time, velocityX: 0.1)
        }
        for (time, framing) in frames where time > 1 {
            let shown = FractionalBox(centreX: 0.3 + 0.1 * time, centreY: 0.5, width: 0.06, height: 0.15).within(framing.crop)
            #expect(shown.centreX > 1.0 / 3 && shown.centreX < 2.0 / 3, "at \(time) s the subject is at \(shown.centreX)")
        }
        let last = frames.last!
        #expect(last.framing.centreX > 0.3 + 0.1 * last.time, "the crop leads the subject: room ahead")
    }

    @Test func aLostSubjectHoldsForASecondThenWidensAtTheRampsRate() {
        var rule = AutoFraming(range: 1...8, size: .medium)
        _ = Self.run(&rule, seconds: 5) { _ in Self.person(height: 0.1) }
        let framed = rule.framing.zoom
        let holding = Self.run(&rule, from: 5, seconds: 0.9) { _ in nil }
        #expect(holding.allSatisfy { $0.framing.zoom == framed })
        #expect(rule.phase == .holding)
        let searching = Self.run(&rule, from: 5.9, seconds: 4) { _ in nil }
        #expect(rule.phase == .searching)
        #expect(Self.speeds(searching).allSatisfy { $0 <= 1e-9 && $0 >= -AutoFraming.maximumDoublingsPerSecond - 1e-9 })
        #expect(searching.last!.framing.zoom == 1, "widened all the way to find the subject")
        _ = Self.run(&rule, from: 9.9, seconds: 0.1) { _ in Self.person(height: 0.1) }
        #expect(rule.phase == .following, "found again")
    }

    @Test func aManualZoomOverridesAtOnceAndPausesUntilAFewSecondsAfterRelease() {
        var rule = AutoFraming(range: 1...8, size: .medium)
        _ = Self.run(&rule, seconds: 5) { _ in Self.person(height: 0.1) }
        rule.manualZoom(2, at: 5)
        #expect(rule.framing.zoom == 2 && rule.phase == .overridden)
        let held = Self.run(&rule, from: 5, seconds: 2) { _ in Self.person(height: 0.1) }
        #expect(held.allSatisfy { $0.framing.zoom == 2 }, "held: the photographer's zoom")
        rule.manualReleased(at: 7)
        let paused = Self.run(&rule, from: 7, seconds: AutoFraming.overridePauseSeconds - 0.1) { _ in Self.person(height: 0.1) }
        #expect(paused.allSatisfy { $0.framing.zoom == 2 }, "paused a few seconds after the release")
        _ = Self.run(&rule, from: 9.9, seconds: 4) { _ in Self.person(height: 0.1) }
        #expect(rule.phase == .following)
        #expect(abs(rule.framing.zoom - 5) / 5 < 0.05, "then it frames the subject again")
    }

    @Test func turningItBackOnEndsThePause() {
        var rule = AutoFraming(range: 1...8)
        rule.manualZoom(3, at: 0)
        rule.manualReleased(at: 1)
        rule.resume()
        _ = rule.update(subject: Self.person(height: 0.1), at: 1.1)
        #expect(rule.phase == .following)
    }

    @Test func theCropStaysInsideWhatTheLensSees() {
        var rule = AutoFraming(range: 1...8, size: .medium)
        let frames = Self.run(&rule, seconds: 6) { _ in Self.person(height: 0.1, centreX: 0.97, centreY: 0.03) }
        for (_, framing) in frames {
            let crop = framing.crop
            #expect(crop.x >= -1e-9 && crop.x + crop.width <= 1 + 1e-9)
            #expect(crop.y >= -1e-9 && crop.y + crop.height <= 1 + 1e-9)
        }
        #expect(abs(frames.last!.framing.crop.x + frames.last!.framing.crop.width - 1) < 1e-9, "against the right edge")
        // A wider lens sees beyond the zoom-1 picture: the crop may go there.
        var wide = AutoFraming(range: 0.5...8, size: .medium, framing: Framing(zoom: 1))
        let ultraWide = FractionalBox(x: -0.5, y: -0.5, width: 2, height: 2)
        let far = Self.run(&wide, seconds: 6, extent: ultraWide) { _ in Self.person(height: 0.1, centreX: 1.2) }
        #expect(far.last!.framing.centreX > 1, "panned onto what only the wider lens sees")
    }

    @Test func aSubjectTurningBackFromTheEdgeIsFollowedWhileTheZoomWidens() {
        // Zoomed in on a skier past the right edge, the crop against it, the zoom already
        // widening for the skier coming nearer; then the skier turns back left (the skier
        // clip's turn). The widening zoom pushes the crop off the edge each frame: the pan
        // must still build up its own speed, not start again from rest every frame.
        var rule = AutoFraming(range: 1...8, size: .medium, framing: Framing(zoom: 4.4, centreX: 1 - 0.5 / 4.4))
        func skier(_ time: Double) -> AutoFraming.Subject {
            let height = 0.15 + 0.03 * time, turned = max(time - 0.3, 0)
            return AutoFraming.Subject(box: FractionalBox(centreX: 0.95 - 0.15 * turned, centreY: 0.5, width: height * 0.4,
                                                     height: height), velocityX: time > 0.3 ? -0.15 : 0, heightVelocity: 0.03)
        }
        let frames = Self.run(&rule, seconds: 4, subject: skier)
        for (time, framing) in frames where time > 1.5 {
            let shown = skier(time).box.within(framing.crop)
            #expect(shown.centreX > 1.0 / 3 && shown.centreX < 2.0 / 3, "at \(time) s the skier is at \(shown.centreX) across")
        }
    }

    @Test func zoomReversalsAreCountedOncePastTheThreshold() {
        var counter = ZoomReversalCounter(thresholdStops: 0.05)
        for zoom in [1.0, 1.01, 0.995, 1.005] { counter.record(zoom: zoom) }
        #expect(counter.reversals == 0, "jitter is not hunting")
        for zoom in [1.2, 1.5, 1.4, 1.2, 1.3, 1.5] { counter.record(zoom: zoom) }
        #expect(counter.reversals == 2)
    }

    @Test func boxesOverlapAndMoveBetweenPictures() {
        let a = FractionalBox(x: 0, y: 0, width: 0.2, height: 0.2)
        #expect(a.overlap(a) == 1)
        #expect(a.overlap(FractionalBox(x: 0.5, y: 0.5, width: 0.1, height: 0.1)) == 0)
        #expect(abs(a.overlap(FractionalBox(x: 0.1, y: 0, width: 0.2, height: 0.2)) - 1.0 / 3) < 1e-12)
        let crop = FractionalBox(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let inCrop = FractionalBox(x: 0.3, y: 0.4, width: 0.1, height: 0.2).within(crop)
        #expect(abs(inCrop.x - 0.1) < 1e-12 && abs(inCrop.height - 0.4) < 1e-12)
        #expect(inCrop.placed(in: crop) == FractionalBox(x: 0.3, y: 0.4, width: 0.1, height: 0.2))
    }
}

/// The manual zoom and auto-zoom sharing the zoom.
@Suite("Auto-zoom control")
struct AutoZoomControlTests {
    static let subject = AutoFraming.Subject(box: FractionalBox(centreX: 0.6, centreY: 0.5, width: 0.04, height: 0.1))

    @Test func offItIsTheManualZoomCentred() {
        var control = AutoZoomControl()
        var zoom = ZoomRamp(range: 1...8, factor: 2)
        let framing = control.framing(enabled: false, size: .medium, zoom: &zoom, pinching: false, subject: Self.subject, at: 0)
        #expect(framing == Framing(zoom: 2))
        #expect(control.phase == nil)
    }

    @Test func onItFramesTheSubjectAndTheManualZoomFollows() {
        var control = AutoZoomControl()
        var zoom = ZoomRamp(range: 1...8)
        var framing = Framing(zoom: 1)
        for frame in 1...300 {
            framing = control.framing(enabled: true, size: .medium, zoom: &zoom, pinching: false, subject: Self.subject,
                                      at: Double(frame) / 60)
        }
        #expect(abs(framing.zoom - 5) / 5 < 0.05 && framing.centreX > 0.55)
        #expect(zoom.factor(at: 5) == framing.zoom, "a key would start from here")
        #expect(control.phase == .following)
    }

    /// Lenses follow auto-zoom as they follow the keys: the sensor is asked for the framing's
    /// zoom about the middle (`centredZoomHoldingCrop`, what `InputRouter.follow` sends), and
    /// the lens set picks the lens from it. A subject near the middle takes the tele; one near
    /// the edge keeps the wide, cropped, since the tele's narrower view would not hold it.
    @Test func lensesFollowAutoZoomAsTheyFollowTheKeys() {
        let lenses = LensSet([LensDescription(role: .wide, camera: "a"), LensDescription(role: .tele, camera: "b")])
        func settled(on subject: AutoFraming.Subject) -> Framing {
            var control = AutoZoomControl()
            var zoom = ZoomRamp(range: lenses.zoomRange)
            var framing = Framing(zoom: 1)
            for frame in 1...600 {
                framing = control.framing(enabled: true, size: .medium, zoom: &zoom, pinching: false, subject: subject,
                                          at: Double(frame) / 60)
            }
            return framing
        }
        let near = settled(on: AutoFraming.Subject(box: FractionalBox(centreX: 0.52, centreY: 0.5, width: 0.05, height: 0.12)))
        #expect(near.zoom > 3.5, "framed at about 4.2x: \(near.zoom)")
        #expect(lenses.lens(forZoom: near.centredZoomHoldingCrop) == 1, "the tele, as a zoom key held to \(near.zoom)x takes it")
        #expect(lenses.lens(forZoom: Framing(zoom: near.zoom).centredZoomHoldingCrop) == 1)
        let edge = settled(on: AutoFraming.Subject(box: FractionalBox(centreX: 0.85, centreY: 0.5, width: 0.05, height: 0.12)))
        #expect(edge.zoom > 3.5 && edge.centreX > 0.75)
        #expect(lenses.lens(forZoom: edge.centredZoomHoldingCrop) == 0, "the wide, cropped: \(edge.centredZoomHoldingCrop)")
    }

    @Test func aZoomKeyOverridesAndAutoZoomReturnsAfterThePause() {
        var control = AutoZoomControl()
        var zoom = ZoomRamp(range: 1...8)
        var time = 0.0
        func run(seconds: Double) -> Framing {
            var framing = Framing(zoom: 1)
            for _ in 0..<Int(seconds * 60) {
                time += 1.0 / 60
                framing = control.framing(enabled: true, size: .medium, zoom: &zoom, pinching: false, subject: Self.subject, at: time)
            }
            return framing
        }
        _ = run(seconds: 5)
        zoom.press(.zoomOut, at: time)
        let held = run(seconds: 1)
        #expect(held.zoom < 3 && control.phase == .overridden, "the key zooms out at once: \(held.zoom)")
        zoom.release(at: time)
        let paused = run(seconds: 2)
        #expect(abs(paused.zoom - held.zoom) < 0.1, "paused after the release")
        let back = run(seconds: 4)
        #expect(abs(back.zoom - 5) / 5 < 0.05 && control.phase == .following, "then auto-zoom frames again")
    }

    @Test func aPinchOverridesToo() {
        var control = AutoZoomControl()
        var zoom = ZoomRamp(range: 1...8)
        _ = control.framing(enabled: true, size: .medium, zoom: &zoom, pinching: true, subject: Self.subject, at: 0.1)
        #expect(control.phase == .overridden)
    }
}

/// A framing's crop in a frame's pixels, and what the camera's own zoom may do for it.
@Suite("Framing crop")
struct FramingCropTests {
    @Test func aCentredFramingCropsTheMiddleAndAMovedOneMovesItsCrop() {
        #expect(Framing(zoom: 1).crop(inFrameWidth: 1280, height: 720, frameZoom: 1) == nil, "the whole frame: no crop")
        #expect(Framing(zoom: 2).crop(inFrameWidth: 1280, height: 720, frameZoom: 1) == PixelRect(x: 320, y: 180, width: 640, height: 360))
        let moved = Framing(zoom: 2, centreX: 0.7, centreY: 0.4)
        #expect(moved.crop(inFrameWidth: 1280, height: 720, frameZoom: 1) == PixelRect(x: 576, y: 108, width: 640, height: 360))
        // The camera zoomed 2x itself: the frame is the middle half, the same crop is all of it.
        #expect(Framing(zoom: 2).crop(inFrameWidth: 1280, height: 720, frameZoom: 2) == nil)
        #expect(Framing(zoom: 4, centreX: 0.6).crop(inFrameWidth: 1000, height: 1000, frameZoom: 2)
                == PixelRect(x: 450, y: 250, width: 500, height: 500))
    }

    @Test func theCamerasOwnZoomStopsWhereItWouldCutTheCrop() {
        #expect(Framing(zoom: 3).centredZoomHoldingCrop == 3)
        // A crop a quarter wide whose edge is at 0.9: the middle 0.8 holds it, 1.25x.
        #expect(abs(Framing(zoom: 4, centreX: 0.775).centredZoomHoldingCrop - 1.25) < 1e-12)
    }

    @Test func aMovieCropFollowsTheCentreAndStaysInside() {
        #expect(VideoFraming.crop(sourceWidth: 1280, sourceHeight: 720, movieWidth: 1280, movieHeight: 720, zoom: 2,
                                  centreX: 0.75, centreY: 0.5) == PixelRect(x: 640, y: 180, width: 640, height: 360))
        #expect(VideoFraming.crop(sourceWidth: 1280, sourceHeight: 720, movieWidth: 1280, movieHeight: 720, zoom: 2,
                                  centreX: 0.95, centreY: 0.05) == PixelRect(x: 640, y: 0, width: 640, height: 360))
    }
}
