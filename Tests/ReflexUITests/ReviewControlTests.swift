import ReflexCore
import ReflexUI
import Testing

/// Review's rules (issue 34): in by the thumbnail or the play key, out by the play key, Back
/// or the shutter (which still takes its photo at once); through the card by swipes, the
/// first dial and the arrow keys; delete asked once with Cancel highlighted; a protected item
/// refuses delete.
@Suite struct ReviewControlTests {
    static let layout = InterfaceControllerTests.layout
    static let review = ReviewLayout(layout)
    static let metered = InterfaceControllerTests.metered

    static func item(protected: Bool = false) -> ReviewInfo {
        var info = ReviewInfo(name: "100REFLX/RFLX0042", number: "100-0042", position: 1, count: 3, format: "RAW+JPEG")
        info.isProtected = protected
        return info
    }

    /// A controller in review, showing `info`.
    static func reviewing(_ info: ReviewInfo? = item()) -> InterfaceController {
        var c = InterfaceControllerTests.controller()
        _ = c.handle(.key(code: KeyCode.play, pressed: true), at: 1, metered: metered)
        c.showReview(info, cardIsEmpty: info == nil)
        return c
    }

    static func key(_ c: inout InterfaceController, _ code: UInt32, at t: Double = 2) -> InterfaceController.Outcome {
        let outcome = c.handle(.key(code: code, pressed: true), at: t, metered: metered)
        _ = c.handle(.key(code: code, pressed: false), at: t + 0.05, metered: metered)
        return outcome
    }

    static func swipe(_ c: inout InterfaceController, by dx: Double) -> InterfaceController.Outcome {
        _ = c.handle(.touchDown(slot: 0, x: 640, y: 400), at: 3, metered: metered)
        _ = c.handle(.touchMotion(slot: 0, x: 640 + dx / 2, y: 404), at: 3.05, metered: metered)
        _ = c.handle(.touchMotion(slot: 0, x: 640 + dx, y: 408), at: 3.1, metered: metered)
        return c.handle(.touchUp(slot: 0), at: 3.15, metered: metered)
    }

    @Test func thePlayKeyAndTheThumbnailOpenIt() {
        var c = InterfaceControllerTests.controller()
        let opened = Self.key(&c, KeyCode.play)
        #expect(opened.review == .open && c.review != nil && opened.haptic == .tick)
        #expect(c.review?.screen.info == nil, "the card is being read")
        #expect(Self.key(&c, KeyCode.play).review == .close && c.review == nil, "the play key again closes it")
        let tapped = InterfaceControllerTests.tap(&c, Self.layout.thumbnail, at: 5)
        #expect(tapped.review == .open && c.review != nil)
        // The board may name another key.
        var other = InterfaceControllerTests.controller()
        other.controls = try! BoardControls.parse("play-keys = KEY_F1\n").get()
        #expect(Self.key(&other, KeyCode.play).review == nil)
        #expect(Self.key(&other, 59).review == .open)
    }

    @Test func backAndEscapeReturnToTheViewfinder() {
        var c = Self.reviewing()
        #expect(InterfaceControllerTests.tap(&c, Self.review.backButton, at: 4).review == .close && c.review == nil)
        c = Self.reviewing()
        #expect(Self.key(&c, 1).review == .close && c.review == nil, "KEY_ESC")
    }

    @Test func theShutterClosesReviewAndStillDoesItsWork() {
        var c = Self.reviewing()
        let half = c.handle(.key(code: KeyCode.cameraFocus, pressed: true), at: 7, metered: Self.metered)
        #expect(half.review == .close && c.review == nil && half.lockChanged && c.locked, "a half press: ready to shoot")
        _ = c.handle(.key(code: KeyCode.cameraFocus, pressed: false), at: 7.5, metered: Self.metered)
        c = Self.reviewing()
        let full = c.handle(.key(code: KeyCode.camera, pressed: true), at: 8, metered: Self.metered)
        #expect(full.review == .close && full.capture == 8, "a full press takes the photo at its own moment")
    }

    @Test func swipesDialsAndArrowsGoThroughTheCardNewestFirst() {
        var c = Self.reviewing()
        #expect(Self.swipe(&c, by: -300).review == .step(1), "a swipe to the left brings the older one")
        #expect(Self.swipe(&c, by: 300).review == .step(-1))
        #expect(Self.swipe(&c, by: -20).review == nil, "a short drag is not a swipe")
        #expect(c.handle(.wheel(wheel: 0, v120: 120), at: 4, metered: Self.metered).review == .step(1))
        #expect(c.handle(.wheel(wheel: 0, v120: -240), at: 4.1, metered: Self.metered).review == .step(-2))
        #expect(Self.key(&c, 106).review == .step(1) && Self.key(&c, 105).review == .step(-1))
        #expect(c.handle(.wheel(wheel: 0, v120: 120), at: 4, metered: Self.metered).haptic == .tick, "each item felt")
        // Nothing to go through on an empty card.
        var empty = Self.reviewing(nil)
        #expect(Self.key(&empty, 106).review == nil)
    }

    @Test func deleteAsksOnceWithCancelHighlighted() {
        var c = Self.reviewing()
        let asked = InterfaceControllerTests.tap(&c, Self.review.deleteButton, at: 4)
        #expect(asked.review == nil && c.review?.screen.confirmingDelete == true && c.review?.screen.deleteHighlighted == false)
        // The confirming key answers the highlighted choice: Cancel.
        #expect(Self.key(&c, 28).review == nil && c.review?.screen.confirmingDelete == false)
        // The delete key asks too; a turn moves to Delete, the key confirms it.
        _ = Self.key(&c, KeyCode.delete)
        #expect(c.review?.screen.confirmingDelete == true)
        _ = c.handle(.wheel(wheel: 0, v120: 120), at: 5, metered: Self.metered)
        #expect(c.review?.screen.deleteHighlighted == true)
        let deleted = Self.key(&c, 28)
        #expect(deleted.review == .delete(name: "100REFLX/RFLX0042") && deleted.haptic == .confirm)
        // A tap on the question's answers.
        _ = InterfaceControllerTests.tap(&c, Self.review.deleteButton, at: 6)
        #expect(InterfaceControllerTests.tap(&c, Self.review.cancelAnswer, at: 7).review == nil)
        _ = InterfaceControllerTests.tap(&c, Self.review.deleteButton, at: 8)
        #expect(InterfaceControllerTests.tap(&c, Self.review.deleteAnswer, at: 9).review == .delete(name: "100REFLX/RFLX0042"))
    }

    @Test func whileAskedNothingElseMovesAndATapBesideDoesNotAnswer() {
        var c = Self.reviewing()
        _ = Self.key(&c, KeyCode.delete)
        #expect(Self.swipe(&c, by: -300).review == nil, "no swipe to another item under the question")
        #expect(InterfaceControllerTests.tap(&c, Self.review.backButton, at: 5).review == nil)
        #expect(c.review?.screen.confirmingDelete == true)
        #expect(Self.key(&c, 1).review == .close, "Escape still leaves review, deleting nothing")
    }

    @Test func aProtectedItemRefusesDeleteAndProtectToggles() {
        var c = Self.reviewing(Self.item(protected: true))
        let refused = Self.key(&c, KeyCode.delete)
        #expect(refused.notice == InterfaceText.protectedRefusesDelete && c.review?.screen.confirmingDelete == false)
        #expect(InterfaceControllerTests.tap(&c, Self.review.protectButton, at: 4).review
                == .protect(name: "100REFLX/RFLX0042", false))
        c = Self.reviewing()
        #expect(InterfaceControllerTests.tap(&c, Self.review.protectButton, at: 4).review
                == .protect(name: "100REFLX/RFLX0042", true))
    }

    @Test func aTapOnThePictureHidesTheOverlayAndInfoShowsTheHistogram() {
        var c = Self.reviewing()
        _ = InterfaceControllerTests.tap(&c, PixelRect(x: 600, y: 380, width: 40, height: 40), at: 4)
        #expect(c.review?.screen.overlayShown == false)
        // Hidden, the buttons' places are picture: a tap there shows the overlay again.
        _ = InterfaceControllerTests.tap(&c, Self.review.deleteButton, at: 5)
        #expect(c.review?.screen.overlayShown == true && c.review?.screen.confirmingDelete == false)
        let info = InterfaceControllerTests.tap(&c, Self.review.infoButton, at: 6)
        #expect(info.reviewChanged && c.review?.screen.histogramShown == true)
    }

    @Test func theTextsOfTheOverlay() {
        #expect(InterfaceText.reviewExposure(iso: 400, seconds: 1.0 / 125, fNumber: 2.8, bias: -1.0 / 3)
                == "ISO 400   1/125   f/2.8   −0.3 EV")
        #expect(InterfaceText.reviewExposure(iso: nil, seconds: 2, fNumber: 11, bias: 0) == "2s   f/11")
        #expect(InterfaceText.reviewExposure(iso: 100, seconds: 0.5, fNumber: nil, bias: 0.7) == "ISO 100   0.5s   +0.7 EV")
        #expect(InterfaceText.reviewExposure(iso: nil, seconds: nil, fNumber: nil, bias: nil) == nil)
        #expect(InterfaceText.reviewDate(exif: "2024:05:06 07:08:09") == "2024-05-06 07:08:09")
        #expect(InterfaceText.movieLength(seconds: 42.9) == "0:42" && InterfaceText.movieLength(seconds: 3723) == "1:02:03")
        #expect(InterfaceText.deleteQuestion(Self.item()).detail.first == "Both files (RAW+JPEG) leave the card.")
    }
}

/// Review's zoom (issue 34): a double tap to 100 % where tapped and back, a pinch about its
/// fingers, the second dial through the steps, a finger then pans instead of swiping; a RAW
/// alone or a movie says it does not zoom.
@Suite struct ReviewZoomControlTests {
    static let metered = InterfaceControllerTests.metered

    /// In review on a 4000x3000 JPEG.
    static func zoomable(format: String = "JPEG", width: Int = 4000) -> InterfaceController {
        var info = ReviewControlTests.item()
        info.format = format
        (info.photoWidth, info.photoHeight) = (width, width * 3 / 4)
        return ReviewControlTests.reviewing(info)
    }

    static func tap(_ c: inout InterfaceController, x: Double, y: Double, at t: Double) -> InterfaceController.Outcome {
        _ = c.handle(.touchDown(slot: 0, x: x, y: y), at: t, metered: metered)
        return c.handle(.touchUp(slot: 0), at: t + 0.05, metered: metered)
    }

    @Test func aDoubleTapGoesTo100PercentWhereTappedAndBack() {
        var c = Self.zoomable()
        _ = Self.tap(&c, x: 320, y: 200, at: 4)
        let second = Self.tap(&c, x: 322, y: 201, at: 4.2)
        guard case .zoom(let zoom?) = second.review else {
            Issue.record("no zoom: \(String(describing: second.review))")
            return
        }
        #expect(zoom.scale == 1 && c.review?.screen.overlayShown == true, "100 %, the overlay as it was")
        // The photo's point under the finger (the whole photo 0.267 screen pixels a photo pixel,
        // centred) is at the screen's middle: (2000 − 320 / 0.267, 1500 − 200 / 0.267).
        #expect(abs(zoom.centreX - 800) < 10 && abs(zoom.centreY - 750) < 10)
        #expect(Self.tap(&c, x: 600, y: 400, at: 6).review == nil)
        #expect(Self.tap(&c, x: 600, y: 400, at: 6.2).review == .zoom(nil), "and back to the whole photo")
        // Two taps too far apart in time are two taps.
        _ = Self.tap(&c, x: 600, y: 400, at: 8)
        #expect(Self.tap(&c, x: 600, y: 400, at: 8.6).review == nil)
    }

    @Test func zoomedInAFingerPansAndDoesNotSwipe() throws {
        var c = Self.zoomable()
        _ = c.handle(.wheel(wheel: 1, v120: 240), at: 4, metered: Self.metered)  // the second dial: 50, 100 %
        #expect(c.review?.screen.zoom?.scale == 1)
        let before = try #require(c.review?.screen.zoom)
        _ = c.handle(.touchDown(slot: 0, x: 640, y: 400), at: 5, metered: Self.metered)
        _ = c.handle(.touchMotion(slot: 0, x: 600, y: 400), at: 5.05, metered: Self.metered)
        let moved = c.handle(.touchMotion(slot: 0, x: 340, y: 400), at: 5.1, metered: Self.metered)
        let up = c.handle(.touchUp(slot: 0), at: 5.15, metered: Self.metered)
        #expect(up.review == nil, "no swipe while zoomed in")
        guard case .zoom(let panned?) = moved.review else {
            Issue.record("no pan")
            return
        }
        #expect(abs(panned.centreX - (before.centreX + 300)) < 1, "the photo follows the finger")
        // Stepping to another item lets the zoom go.
        #expect(ReviewControlTests.key(&c, 106).review == .step(1) && c.review?.screen.zoom == nil)
    }

    @Test func aPinchScalesAboutItsFingers() {
        var c = Self.zoomable()
        _ = c.handle(.touchDown(slot: 0, x: 540, y: 400), at: 4, metered: Self.metered)
        _ = c.handle(.touchDown(slot: 1, x: 740, y: 400), at: 4.01, metered: Self.metered)
        let spread = c.handle(.touchMotion(slot: 1, x: 940, y: 400), at: 4.1, metered: Self.metered)
        guard case .zoom(let zoom?) = spread.review else {
            Issue.record("no zoom from the pinch")
            return
        }
        #expect(abs(zoom.scale - zoom.fitScale * 2) < 0.001, "the fingers twice as far apart")
        _ = c.handle(.touchUp(slot: 1), at: 4.2, metered: Self.metered)
        #expect(c.handle(.touchUp(slot: 0), at: 4.25, metered: Self.metered).review == nil, "a pinch's finger is no tap")
    }

    /// A finger on a played movie's time bar seeks where it is put down and follows it along
    /// (a seek each tenth crossed), clamped to the bar; lifted, it was no swipe.
    @Test func aFingerOnTheTimeBarSeeksAlongIt() {
        var info = ReviewInfo(name: "100REFLX/RFLX0007", number: "100-0007", position: 1, count: 3, format: "MOVIE")
        info.progress = MovieProgress(seconds: 2, duration: 20, playing: true)
        var c = ReviewControlTests.reviewing(info)
        let bar = ReviewControlTests.review.timeBar
        let (y, quarter) = (Double(bar.y) + Double(bar.height) / 2, Double(bar.x) + Double(bar.width) / 4)
        func seek(_ event: InputEvent, at t: Double) -> ReviewRequest? { c.handle(event, at: t, metered: Self.metered).review }
        #expect(seek(.touchDown(slot: 0, x: quarter, y: y), at: 3) == .seek(5))
        #expect(seek(.touchMotion(slot: 0, x: quarter + Double(bar.width) / 4, y: y + 30), at: 3.1) == .seek(10))
        #expect(seek(.touchMotion(slot: 0, x: quarter + Double(bar.width) / 4 + 0.2, y: y), at: 3.2) == nil, "the same tenth")
        #expect(seek(.touchMotion(slot: 0, x: Double(bar.x + bar.width) + 200, y: y), at: 3.3) == .seek(20), "its end")
        let lifted = c.handle(.touchUp(slot: 0), at: 3.4, metered: Self.metered)
        #expect(lifted.review == nil, "no swipe to another item")
        // Off the bar a drag is a swipe as always.
        #expect(ReviewControlTests.swipe(&c, by: -300).review == .step(1))
    }

    @Test func aRawAloneOrAMovieSaysItDoesNotZoom() {
        var raw = Self.zoomable(format: "RAW", width: 0)
        let refused = raw.handle(.wheel(wheel: 1, v120: 120), at: 4, metered: Self.metered)
        #expect(refused.review == nil && refused.notice == "Only this file's preview can be shown")
        var movie = Self.zoomable(format: "MOVIE", width: 0)
        #expect(movie.handle(.key(code: KeyCode.zoomIn, pressed: true), at: 4, metered: Self.metered).notice
                == "A movie does not zoom")
    }
}

/// Review's index (issue 34): a pinch in, the Index button, the zoom-out key or the second
/// dial turned down on the whole photo opens it on the item shown; a finger scrolls it, a dial moves its highlight,
/// a tap on a cell opens that item alone.
@Suite struct ReviewIndexControlTests {
    static let metered = InterfaceControllerTests.metered

    /// In review on item 3 of 200.
    static func reviewing() -> InterfaceController {
        var info = ReviewControlTests.item()
        (info.position, info.count) = (3, 200)
        return ReviewControlTests.reviewing(info)
    }

    @Test func theZoomOutKeyTheDialOrAPinchInOpenIt() {
        var c = Self.reviewing()
        guard case .grid(let grid) = ReviewControlTests.key(&c, KeyCode.zoomOut).review else {
            Issue.record("no index")
            return
        }
        #expect(grid.count == 200 && grid.highlighted == 2 && c.review?.screen.grid == grid)
        c = Self.reviewing()
        #expect(c.handle(.wheel(wheel: 1, v120: -120), at: 4, metered: Self.metered).review.map { if case .grid = $0 { true } else { false } } == true)
        c = Self.reviewing()
        _ = c.handle(.touchDown(slot: 0, x: 400, y: 400), at: 4, metered: Self.metered)
        _ = c.handle(.touchDown(slot: 1, x: 800, y: 400), at: 4.01, metered: Self.metered)
        let pinched = c.handle(.touchMotion(slot: 1, x: 600, y: 400), at: 4.1, metered: Self.metered)
        #expect(c.review?.screen.grid != nil && pinched.review != nil, "fingers closed by half: the index")
        // The Index button in and out.
        c = Self.reviewing()
        let button = ReviewLayout(InterfaceControllerTests.layout).indexButton
        guard case .grid = InterfaceControllerTests.tap(&c, button, at: 5).review else {
            Issue.record("the Index button did not open the index")
            return
        }
        #expect(InterfaceControllerTests.tap(&c, button, at: 6).review == .single(at: 2) && c.review?.screen.grid == nil)
    }

    @Test func aFingerScrollsADialMovesATapOpens() {
        var c = Self.reviewing()
        _ = ReviewControlTests.key(&c, KeyCode.zoomOut)
        _ = c.handle(.touchDown(slot: 0, x: 640, y: 600), at: 5, metered: Self.metered)
        _ = c.handle(.touchMotion(slot: 0, x: 640, y: 560), at: 5.05, metered: Self.metered)
        _ = c.handle(.touchMotion(slot: 0, x: 640, y: 300), at: 5.1, metered: Self.metered)
        #expect(c.handle(.touchUp(slot: 0), at: 5.15, metered: Self.metered).review == nil, "a scroll opens nothing")
        #expect(c.review?.screen.grid?.scroll == 300, "the rows followed the finger up")
        let moved = c.handle(.wheel(wheel: 0, v120: 120), at: 6, metered: Self.metered)
        guard case .grid(let grid) = moved.review else {
            Issue.record("the dial did not move the highlight")
            return
        }
        #expect(grid.highlighted == grid.visibleItems.lowerBound || grid.highlighted == 3, "moved, and in view")
        let cell = grid.cell(grid.visibleItems.lowerBound + 7)
        let opened = InterfaceControllerTests.tap(&c, cell, at: 7)
        #expect(opened.review == .single(at: grid.visibleItems.lowerBound + 7) && c.review?.screen.grid == nil)
    }

    @Test func backAndTheArrowsInTheIndex() throws {
        var c = Self.reviewing()
        _ = ReviewControlTests.key(&c, KeyCode.zoomOut)
        let down = ReviewControlTests.key(&c, 108)
        let grid = try #require(c.review?.screen.grid, "KEY_DOWN: a row on")
        #expect(down.review == .grid(grid) && grid.highlighted == 8, "KEY_DOWN: a row on")
        _ = ReviewControlTests.key(&c, 105)
        #expect(c.review?.screen.grid?.highlighted == 7)
        #expect(ReviewControlTests.key(&c, 28).review == .single(at: 7), "Enter opens the highlighted one")
        _ = ReviewControlTests.key(&c, KeyCode.zoomOut)
        // (The thread has not said the item shown is now the 8th: the index opens on the 3rd.)
        #expect(InterfaceControllerTests.tap(&c, ReviewLayout(InterfaceControllerTests.layout).backButton, at: 9).review
                == .single(at: 2), "Back: the highlighted item alone, review still open")
        #expect(c.review != nil)
    }
}
