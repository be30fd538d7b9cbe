import ReflexCore
@testable import ReflexRuntime
import ReflexUI
import Testing

/// The viewfinder's model alone: the camera's status turned into the screen's state and
/// notices, on a clock the test gives, with no display, thread or device.
@Suite("Screen model")
struct ScreenModelTests {
    static let layout = ScreenLayout(width: 1280, height: 800)

    static func model(_ settings: CameraSettings = CameraSettings(), lenses: [LensDescription] = []) -> ScreenModel {
        let camera = CameraModel(settings: settings, limits: .unlimited)
        return ScreenModel(controller: InterfaceController(model: camera, layout: layout, now: 0), model: camera,
                           fNumber: 1.8, lenses: lenses, gps: .off)
    }

    @Test func aNoticeShowsForItsSecondsThenGoes() {
        var model = Self.model()
        model.showNotice("Card full", at: 10)
        #expect(model.isAnimating(at: 10 + ScreenModel.noticeSeconds - 0.01))
        _ = model.take(CameraStatus(), sensorChanged: false, now: 10 + ScreenModel.noticeSeconds - 0.01)
        #expect(model.state.notice == "Card full")
        _ = model.take(CameraStatus(), sensorChanged: false, now: 10 + ScreenModel.noticeSeconds)
        #expect(model.state.notice == nil)
    }

    /// Review's overlay fades after a few idle seconds as the Pro dials do (issue 34), and the
    /// card taken out while it is reviewed closes review: the viewfinder's banner says why.
    @Test func reviewFadesAndClosesWhenItsCardGoes() {
        var model = Self.model()
        var status = CameraStatus()
        (status.storageChecked, status.storageFreeBytes) = (true, 8 << 30)
        _ = model.take(status, sensorChanged: false, now: 1)
        _ = model.controller.handle(.key(code: KeyCode.play, pressed: true), at: 1,
                                    metered: MeteredValues(iso: ISOSpeed(100), exposureSeconds: 0.01, focus: .infinity, kelvin: 5000))
        model.followControls()
        #expect(model.state.review != nil)
        #expect(model.frameOverlay(now: 2, layout: Self.layout, shown: Framing(zoom: 1)).controlsOpacity == 1)
        let faded = model.frameOverlay(now: 1 + ControlsFade.idleDelay + ControlsFade.fadeDuration + 0.1, layout: Self.layout,
                                       shown: Framing(zoom: 1)).controlsOpacity
        #expect(faded == ControlsFade.fadedOpacity && model.isAnimating(at: 1 + ControlsFade.idleDelay + 0.1))
        #expect(!model.take(status, sensorChanged: false, now: 5).reviewClosed)
        status.storageFreeBytes = nil
        let effects = model.take(status, sensorChanged: false, now: 6)
        #expect(effects.reviewClosed && model.state.review == nil && model.state.storage == .missing)
    }

    /// The self-timer's countdown on screen, and the loop woken for each of its changes (a
    /// still screen otherwise sleeps until input).
    @Test func theCountdownShowsEachSecondAndWakesTheLoopForIt() throws {
        var settings = CameraSettings()
        settings.drive.mode = .selfTimer
        settings.drive.selfTimer = .twoSeconds
        var model = Self.model(settings)
        #expect(model.secondsUntilChange(at: 1) == nil)
        _ = model.controller.handle(.key(code: KeyCode.camera, pressed: true), at: 1,
                                    metered: MeteredValues(iso: ISOSpeed(100), exposureSeconds: 0.01, focus: .infinity, kelvin: 5000))
        model.followCountdown(at: 1.5)
        #expect(model.state.countdown == 2)
        let untilNextSecond = try #require(model.secondsUntilChange(at: 1.5), "woken as the next second begins")
        #expect(abs(untilNextSecond - 0.5) < 1e-9, "woken as the next second begins")
        model.followCountdown(at: 2.5)
        #expect(model.state.countdown == 1)
        while model.controller.nextTimedPhoto(at: 3.01) != nil {}
        model.followCountdown(at: 3.01)
        #expect(model.state.countdown == nil && model.secondsUntilChange(at: 3.01) == nil)
    }

    /// An interval run's chip follows its shots and wakes the loop for each second; a card
    /// too small for the run is said at its start, and a full card stops it, its shots kept.
    @Test func anIntervalRunIsCheckedAgainstTheCardAndStopsWhenItIsFull() throws {
        var settings = CameraSettings()
        settings.drive.mode = .interval
        (settings.drive.intervalSeconds, settings.drive.intervalCount) = (2, 9999)
        var model = Self.model(settings)
        var status = CameraStatus()
        (status.storageChecked, status.storageFreeBytes) = (true, 200 << 20)
        _ = model.take(status, sensorChanged: false, now: 1)
        _ = model.controller.handle(.key(code: KeyCode.camera, pressed: true), at: 1,
                                    metered: MeteredValues(iso: ISOSpeed(100), exposureSeconds: 0.01, focus: .infinity, kelvin: 5000))
        while model.controller.nextTimedPhoto(at: 1.2) != nil {}
        model.followCountdown(at: 1.2)
        #expect(model.state.interval == IntervalProgress(taken: 1, count: 9999, secondsToNext: 2))
        let untilShownSecond = try #require(model.secondsUntilChange(at: 1.7), "woken as the shown second changes")
        #expect(abs(untilShownSecond - 0.3) < 1e-9, "woken as the shown second changes")
        _ = model.take(status, sensorChanged: false, now: 1.3)
        #expect(model.state.notice?.hasPrefix("Card holds only ") == true, "200 MB is far from 9,999 shots")
        #expect(model.controller.intervalRun != nil, "the run goes on: the photographer decides")
        status.storageFreeBytes = 1 << 20
        _ = model.take(status, sensorChanged: false, now: 4)
        #expect(model.controller.intervalRun == nil)
        #expect(model.state.notice == "Interval stopped – the card is full: 1 shot")
        model.followCountdown(at: 4.1)
        #expect(model.state.interval == nil)
    }

    /// A bracket that kept every frame as asked says nothing; one short of that says what it
    /// kept, once.
    @Test func aBracketThatCouldNotBeExposedAsAskedSaysSo() {
        var model = Self.model()
        var status = CameraStatus()
        status.sensor.lastBracket = BracketOutcome(press: 1, frames: 5, taken: 5, notAsAsked: 0)
        _ = model.take(status, sensorChanged: true, now: 1)
        #expect(model.state.notice == nil)
        status.sensor.lastBracket = BracketOutcome(press: 2, frames: 5, taken: 4, notAsAsked: 0)
        _ = model.take(status, sensorChanged: true, now: 2)
        #expect(model.state.notice == "Bracket: 4 of 5 frames taken")
        model.showNotice("Other news", at: 2.5)
        _ = model.take(status, sensorChanged: true, now: 3)
        #expect(model.state.notice == "Other news", "said once")
        status.sensor.lastBracket = BracketOutcome(press: 3, frames: 3, taken: 3, notAsAsked: 2)
        _ = model.take(status, sensorChanged: true, now: 4)
        #expect(model.state.notice == "Bracket: 2 of 3 frames not exposed as asked")
    }

    /// A timelapse's progress shows as it is made, then its movie's name; a run it could not
    /// be made of says why. (A loop opened again does not say old news.)
    @Test func aTimelapseSaysItsProgressThenItsMovie() {
        var model = Self.model()
        var status = CameraStatus()
        status.timelapse.made = 4
        status.timelapse.lastName = "RFLX0001.MP4"
        _ = model.take(status, sensorChanged: false, now: 1)
        #expect(model.state.notice == nil, "old news")
        (status.timelapse.making, status.timelapse.framesDone, status.timelapse.framesTotal) = (true, 45, 300)
        _ = model.take(status, sensorChanged: false, now: 2)
        #expect(model.state.notice == "Making timelapse… 15%")
        status.timelapse = TimelapseReport()
        (status.timelapse.made, status.timelapse.lastName, status.timelapse.lastFrames, status.timelapse.lastSeconds) =
            (5, "RFLX0312.MP4", 300, 10)
        _ = model.take(status, sensorChanged: false, now: 3)
        #expect(model.state.notice == "Timelapse saved: RFLX0312.MP4 – 300 frames, 10s")
        (status.timelapse.refused, status.timelapse.lastRefusal) = (1, "No timelapse: the run saved no JPEGs")
        _ = model.take(status, sensorChanged: false, now: 4)
        #expect(model.state.notice == "No timelapse: the run saved no JPEGs")
    }

    /// In the Bracketing drive a press asks the sensor thread for the whole bracket.
    @Test func aPressInTheBracketingDriveAsksForTheBracket() throws {
        var settings = CameraSettings()
        settings.drive.mode = .bracketing
        (settings.drive.bracketFrames, settings.drive.bracketStepThirds) = (5, 2)
        var model = Self.model(settings)
        let mailbox = ControlMailbox()
        let router = InputRouter(mailbox: mailbox, settingsWriter: nil, gps: nil, haptics: nil, movies: nil, saveDecisions: nil,
                                 analysis: nil, reviewer: nil)
        router.takePhoto(pressedAt: 1, now: 1, model: &model)
        let request = try #require(mailbox.takeCaptureRequest())
        #expect(request.bracket == BracketPlan(frames: 5, stepThirds: 2))
        var single = Self.model()
        router.takePhoto(pressedAt: 2, now: 2, model: &single)
        #expect(mailbox.takeCaptureRequest()?.bracket == nil)
    }

    @Test func aBurstInEnhancedRawSaysItsPhotosArePlainRaws() {
        var enhanced = CameraSettings()
        enhanced.format = .enhancedRaw
        var model = Self.model(enhanced)
        model.photoRequested(at: 1)
        #expect(model.state.notice == nil, "a single press merges: nothing to say")
        model.burstPhotoRequested(at: 1.3)
        #expect(model.state.notice == InterfaceText.burstTakesPlainRaw)
        var plain = Self.model()
        plain.burstPhotoRequested(at: 1.3)
        #expect(plain.state.notice == nil, "in RAW a burst is what it always was")
    }

    @Test func cancelledPhotosAreSaidOnceAndOnlyWhenNew() {
        var model = Self.model()
        var status = CameraStatus()
        status.photo.cancelled = 2
        _ = model.take(status, sensorChanged: false, now: 1)
        #expect(model.state.notice == nil, "a loop opened again does not say old news")
        status.sensor.photosCancelled = 1
        _ = model.take(status, sensorChanged: true, now: 2)
        #expect(model.state.notice == "1 photo cancelled – memory low")
        status.photo.cancelled = 4
        _ = model.take(status, sensorChanged: false, now: 3)
        #expect(model.state.notice == "2 photos cancelled – memory low")
    }

    /// The camera's ranges come with the sensor's copy of the settings, which is older than
    /// a change made while the camera opened (a phone set Pro and turned ISO before the
    /// report came, on a slow machine: CI of stop 68): the ranges are taken, the change kept.
    @Test func theCamerasRangesDoNotUndoAChangeMadeWhileItOpened() {
        var model = Self.model()
        let metered = MeteredValues(iso: ISOSpeed(400), exposureSeconds: 1.0 / 125, focus: .infinity, kelvin: 5200)
        _ = model.controller.handleRemote(.mode(.pro), at: 1, metered: metered)
        _ = model.controller.handleRemote(.turn(.iso, steps: 2), at: 1, metered: metered)
        model.settingsChanged(at: 1)
        #expect(model.state.settings.mode == .pro && model.state.settings.iso == .manual(ISOSpeed(640)))
        var status = CameraStatus()
        status.sensor.status = .streaming
        status.sensor.limits = SensorLimits(isoRange: 100...1594, exposureRange: 0.0001...0.0333, hasFocusControl: false,
                                            hasRawFormat: true)
        status.sensor.settings = CameraSettings()
        _ = model.take(status, sensorChanged: true, now: 2)
        #expect(model.state.settings.mode == .pro, "the sensor's copy said Auto: it was older")
        #expect(model.state.settings.iso == .manual(ISOSpeed(640)))
        #expect(model.controller.model.limits == status.sensor.limits, "the dials follow the camera's ranges")
    }

    @Test func aNewLensIsFeltAndAFocusSetByHandGoesBackToAuto() {
        var settings = CameraSettings()
        settings.mode = .pro
        settings.focus = .manual(FocusPosition(0.3))
        let lenses = [LensDescription(role: .wide, camera: "a"), LensDescription(role: .tele, camera: "b")]
        var model = Self.model(settings, lenses: lenses)
        var status = CameraStatus()
        status.sensor.status = .streaming
        status.sensor.lensesPresent = 0b110
        status.sensor.activeLens = .wide
        let first = model.take(status, sensorChanged: true, now: 1)
        #expect(first.haptic == nil && !first.settingsChanged, "the first lens shown is no switch")
        #expect(model.state.lenses.lenses.map(\.role) == [.wide, .tele])
        #expect(model.state.settings.focus == .manual(FocusPosition(0.3)))
        status.sensor.activeLens = .tele
        let switched = model.take(status, sensorChanged: true, now: 2)
        #expect(switched.haptic == .confirm)
        #expect(switched.settingsChanged)
        #expect(model.state.settings.focus == .auto)
        #expect(model.state.activeLens == 1)
    }

    @Test func geotagSwitchedOnWithNoGPSServiceGoesBackOffAndSaysWhy() {
        // Geotag just turned on: the controller has it, the screen not yet.
        var settings = CameraSettings()
        settings.geotag = true
        var model = ScreenModel(controller: InterfaceController(model: CameraModel(settings: settings, limits: .unlimited),
                                                                layout: Self.layout, now: 0),
                                model: CameraModel(settings: CameraSettings(), limits: .unlimited), fNumber: 1.8, lenses: [], gps: .off)
        model.settingsChanged(at: 5)
        #expect(model.state.settings.geotag)
        var status = CameraStatus()
        status.gps = .connecting
        #expect(!model.take(status, sensorChanged: false, now: 5.5).settingsChanged, "no answer yet")
        status.gps = .serviceNotRunning
        let refused = model.take(status, sensorChanged: false, now: 6)
        #expect(refused.settingsChanged)
        #expect(!model.state.settings.geotag)
        #expect(model.state.notice == InterfaceText.geotagRefused("GPS service not running"))
    }

    @Test func aNewHistogramAsksForTheOverlay() {
        var model = Self.model()
        var status = CameraStatus()
        status.sensor.hasHistogram = true
        status.sensor.histogram[3] = 7
        #expect(model.take(status, sensorChanged: true, now: 1).histogramChanged)
        #expect(model.histogram[3] == 7)
        #expect(!model.take(status, sensorChanged: false, now: 1.1).histogramChanged)
    }
}
