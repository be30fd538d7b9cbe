import ReflexCore
import ReflexISP
import ReflexUI
import ReflexTestSupport
import Testing

/// Every screen and state of the interface against its reference image.
@Suite struct ScreenGoldenTests {
    static let width = 1280, height = 800

    /// A fixed picture for the viewfinder: a sky gradient, a clipped sun (for zebras),
    /// fine texture below (for peaking), inside the 16:9 letterbox.
    static func picture(_ layout: ScreenLayout) -> [UInt32] {
        var pixels = [UInt32](repeating: 0xFF00_0000, count: width * height)
        let v = layout.viewfinder
        for y in v.y..<(v.y + v.height) {
            for x in v.x..<(v.x + v.width) {
                let fy = Double(y - v.y) / Double(v.height), fx = Double(x - v.x) / Double(v.width)
                var r: Double, g: Double, b: Double
                if fy < 0.55 {
                    (r, g, b) = (90 + 80 * fy, 140 + 70 * fy, 200 + 40 * fy)
                } else {
                    let check = ((x / 24) + (y / 24)) % 2 == 0 ? 1.0 : 0.55
                    (r, g, b) = (110 * check, 120 * check + 20 * fx, 70 * check)
                }
                let dx = fx - 0.7, dy = fy - 0.25
                if dx * dx + dy * dy * 3 < 0.006 { (r, g, b) = (255, 255, 255) }
                pixels[y * width + x] = 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            }
        }
        return pixels
    }

    static let histogram: [UInt32] = (0..<64).map { bin in
        let x = Double(bin) / 63
        return UInt32(1000 * (0.2 + x * (1 - x) * 3) + (bin > 60 ? 900 : 0))
    }

    static func proSettings(_ dial: Dial) -> CameraSettings {
        var s = CameraSettings()
        s.mode = .pro
        s.selectedDial = dial
        s.iso = .manual(ISOSpeed(800))
        s.shutter = .manual(ShutterSpeed(1, 250))
        s.focus = .manual(FocusPosition(thousandths: 400))
        s.whiteBalance = dial == .whiteBalance ? .preset(.cloudy) : .kelvin(5600)
        return s
    }

    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let state: ViewState
        var controlsOpacity = 1.0
        var reveal: Double? = nil
        var zebras = false
        var peaking = false
        var captureMark = 0.0
        var meteringBox: PixelRect? = nil
        var grid = false
        /// Auto-zoom's subject and the others it follows, on the picture.
        var subjectBox: PixelRect? = nil
        var subjectChosen = false
        var otherBoxes: [PixelRect] = []
        var description: String { name }
    }

    static let readout = ExposureReadout(iso: 400, shutter: ShutterSpeed(1, 125), fNumberTenths: 28, kelvin: 5200)

    static let cases: [Case] = {
        var list: [Case] = [Case(name: "auto", state: ViewState(readout: readout))]
        for dial in Dial.allCases {
            list.append(Case(name: "pro-\(dial.rawValue)", state: ViewState(settings: proSettings(dial), readout: readout)))
        }
        list.append(Case(name: "pro-faded", state: ViewState(settings: proSettings(.iso), readout: readout),
                         controlsOpacity: ControlsFade.fadedOpacity))
        list.append(Case(name: "pro-revealing", state: ViewState(settings: proSettings(.shutter), readout: readout), reveal: 0.5))
        var autoSettings = CameraSettings()
        autoSettings.exposureCompensation = ExposureCompensation(thirds: 2)
        autoSettings.format = .rawPlusJPEG
        list.append(Case(name: "indicators", state: ViewState(settings: autoSettings, readout: readout, gps: .fix,
                                                               savingCount: 2, storage: .low(StorageAdvice(level: .low, shotsLeft: 23, format: .rawPlusJPEG)))))
        var enhanced = CameraSettings()
        enhanced.format = .enhancedRawPlusJPEG
        var merging = ViewState(settings: enhanced, readout: readout, savingCount: 1)
        merging.processing = true
        list.append(Case(name: "enhanced-raw", state: merging))
        list.append(Case(name: "gps-searching", state: ViewState(readout: readout, gps: .searching)))
        var refused = ViewState(readout: readout, gps: .unavailable)
        refused.notice = InterfaceText.geotagRefused("No GPS receiver")
        list.append(Case(name: "gps-unavailable", state: refused))
        // A computer on the USB cable: its icon beside the GPS one.
        var tethered = ViewState(readout: readout, gps: .fix)
        tethered.usb = .connected
        list.append(Case(name: "usb-connected", state: tethered))
        var full = ViewState(settings: autoSettings, readout: readout, savingCount: 2,
                             storage: .low(StorageAdvice(level: .full, shotsLeft: 0, format: .rawPlusJPEG)))
        full.saveProblem = SaveProblem(kind: .storageFull, message: StorageAdvice.fullTitle,
                                       suggestion: StorageAdvice.fullSuggestion(format: .rawPlusJPEG), waiting: 2)
        list.append(Case(name: "save-problem", state: full))
        var zoomed = ViewState(readout: readout)
        zoomed.zoomTenths = 24
        list.append(Case(name: "zoomed", state: zoomed))
        list.append(Case(name: "no-focus-motor", state: ViewState(settings: proSettings(.iso), readout: readout, hasFocusDial: false)))
        var zebraSettings = CameraSettings()
        zebraSettings.zebras = true
        list.append(Case(name: "zebras", state: ViewState(settings: zebraSettings, readout: readout), zebras: true))
        list.append(Case(name: "peaking", state: ViewState(settings: proSettings(.focus), readout: readout), peaking: true))
        // A photo just taken with the half press held: the mark round the picture, the lock
        // sign and the new thumbnail (a small picture of stripes, to see it scaled).
        var shot = ViewState(readout: readout)
        shot.exposureLocked = true
        shot.lastPhoto = PhotoThumbnail(number: PhotoNumber(folder: 100, file: 7)!, rgb: (0..<(64 * 36)).flatMap { i -> [UInt8] in
            let x = i % 64, y = i / 64
            return x < 32 ? [UInt8(200), UInt8(60 + y * 4), 40] : [40, UInt8(120 + y * 3), 220]
        }, width: 64, height: 36)
        list.append(Case(name: "photo-taken", state: shot, captureMark: 0.8))
        var noRaw = ViewState(readout: readout)
        noRaw.notice = InterfaceText.rawUnavailable
        list.append(Case(name: "raw-unavailable", state: noRaw))
        list.append(Case(name: "storage-missing", state: ViewState(readout: readout, storage: .missing)))
        // The quick menu open on exposure compensation, over Auto with its grid and a spot metered.
        var menuSettings = CameraSettings()
        menuSettings.exposureCompensation = ExposureCompensation(thirds: -1)
        menuSettings.framingGrid = true
        menuSettings.jpegQuality = .extraFine
        var menu = ViewState(settings: menuSettings, readout: readout)
        menu.menu.open()
        menu.menu.highlight(.exposureCompensation)
        list.append(Case(name: "quick-menu", state: menu, grid: true))
        // Geotag turned on for the first time: the consent screen over the menu, the dials on Allow.
        var consent = ViewState(readout: readout)
        consent.menu.open()
        consent.menu.highlight(.geotag)
        consent.menu.askConsent()
        consent.menu.moveConsentChoice()
        list.append(Case(name: "geotag-consent", state: consent))
        // The drive on Self-timer, its own line open below it; and the self-timer's countdown
        // over the picture, its chip in the top bar.
        var driveSettings = CameraSettings()
        driveSettings.drive.mode = .selfTimer
        driveSettings.drive.selfTimer = .tenSecondsThreeShots
        var driveMenu = ViewState(settings: driveSettings, readout: readout)
        driveMenu.menu.open()
        driveMenu.menu.highlight(.selfTimer)
        list.append(Case(name: "quick-menu-drive", state: driveMenu))
        // The remote just turned on: its sheet over the menu, the network and the page with
        // their QR codes, the pairing code.
        var remoteSettings = CameraSettings()
        remoteSettings.remote = true
        var remote = ViewState(settings: remoteSettings, readout: readout)
        remote.menu.highlight(.remote)
        remote.menu.showRemote()
        remote.remote = try! RemoteSheetTests.serving()
        remote.remote.phones = 1
        list.append(Case(name: "remote-sheet", state: remote))
        var timerSettings = CameraSettings()
        timerSettings.drive.mode = .selfTimer
        var countdown = ViewState(settings: timerSettings, readout: readout)
        countdown.countdown = 7
        list.append(Case(name: "self-timer-countdown", state: countdown))
        var intervalSettings = CameraSettings()
        intervalSettings.drive.mode = .interval
        var intervalRun = ViewState(settings: intervalSettings, readout: readout)
        intervalRun.interval = IntervalProgress(taken: 12, count: 300, secondsToNext: 84)
        list.append(Case(name: "interval-run", state: intervalRun))
        var spot = CameraSettings()
        spot.meteringPoint = MeteringPoint(x: 0.7, y: 0.3)
        list.append(Case(name: "metering-spot", state: ViewState(settings: spot, readout: readout),
                         meteringBox: spot.meteringPoint!.box(viewfinder: ScreenLayout(width: width, height: height).viewfinder,
                                                              zoom: 1)))
        var video = CameraSettings()
        video.capture = .video
        list.append(Case(name: "video", state: ViewState(settings: video, readout: readout)))
        var recording = ViewState(settings: video, readout: readout, gps: .fix)
        recording.recording = RecordingIndicator(elapsedSeconds: 67, secondsLeft: 25 * 60 + 12)
        list.append(Case(name: "recording", state: recording))
        var autoZoom = CameraSettings()
        autoZoom.autoZoom = true
        var following = ViewState(settings: autoZoom, readout: readout)
        following.autoZoom = .following
        following.zoomTenths = 32
        list.append(Case(name: "auto-zoom", state: following, subjectBox: PixelRect(x: 560, y: 250, width: 110, height: 330),
                         otherBoxes: [PixelRect(x: 820, y: 300, width: 80, height: 240)]))
        var chosen = following
        chosen.autoZoom = .followingChosen
        list.append(Case(name: "subject-chosen", state: chosen, subjectBox: PixelRect(x: 560, y: 250, width: 110, height: 330),
                         subjectChosen: true, otherBoxes: [PixelRect(x: 820, y: 300, width: 80, height: 240)]))
        var lost = following
        lost.autoZoom = .searching
        list.append(Case(name: "subject-lost", state: lost))
        // Review: a pair with a location; protected, with its histogram; the delete question; an empty card.
        var reviewed = ReviewInfo(name: "100REFLX/RFLX0042", number: "100-0042", position: 3, count: 120, format: "RAW+JPEG")
        reviewed.taken = "2026-11-26 10:11:12"
        reviewed.exposure = "ISO 400   1/125   f/2.8   −0.3 EV"
        reviewed.hasLocation = true
        reviewed.histogram = histogram.map(Int.init)
        var review = ViewState(readout: readout)
        review.review = ReviewScreen()
        review.review?.info = reviewed
        list.append(Case(name: "review", state: review))
        var protected = review
        protected.review?.info?.isProtected = true
        protected.review?.histogramShown = true
        list.append(Case(name: "review-protected", state: protected))
        var zoomedIn = review
        var zoom = ReviewZoom(photoWidth: 4000, photoHeight: 3000, screenWidth: width, screenHeight: height)
        zoom.turn(2)
        zoomedIn.review?.zoom = zoom
        list.append(Case(name: "review-zoomed", state: zoomedIn))
        var movie = ViewState(readout: readout)
        var movieInfo = ReviewInfo(name: "100REFLX/RFLX0043", number: "100-0043", position: 2, count: 120, format: "MOVIE")
        movieInfo.taken = "2026-11-26 10:12:00"
        movieInfo.movieLength = "0:42"
        movieInfo.progress = MovieProgress(seconds: 12.3, duration: 42, playing: false)
        movie.review = ReviewScreen()
        movie.review?.info = movieInfo
        list.append(Case(name: "review-movie", state: movie))
        var question = review
        question.review?.confirmingDelete = true
        list.append(Case(name: "review-delete", state: question))
        var empty = ViewState(readout: readout)
        empty.review = ReviewScreen()
        empty.review?.cardIsEmpty = true
        list.append(Case(name: "review-empty", state: empty))
        list.append(Case(name: "no-camera", state: ViewState(screen: .noCamera, readout: readout)))
        list.append(Case(name: "reconnecting", state: ViewState(screen: .reconnecting, readout: readout)))
        return list
    }()

    /// A state unlike every case in each layer: Pro on the focus dial, Video recording, GPS
    /// searching, the menu open, the card missing.
    static let earlierState: ViewState = {
        var settings = proSettings(.focus)
        settings.capture = .video
        var state = ViewState(settings: settings, readout: ExposureReadout(iso: 3200, shutter: ShutterSpeed(1, 8),
                                                                           fNumberTenths: 40, kelvin: 3000),
                              gps: .searching, savingCount: 2, storage: .missing)
        state.recording = RecordingIndicator(elapsedSeconds: 3599, secondsLeft: 59)
        state.notice = "An earlier notice"
        state.menu.open()
        return state
    }()

    @Test(arguments: cases)
    func screen(_ testCase: Case) throws {
        let layout = ScreenLayout(width: Self.width, height: Self.height)
        let fonts = try FontLibrary(folder: GoldenImage.repository + "/Fonts")
        let model = CameraModel(settings: testCase.state.settings, limits: .unlimited)
        let renderer = InterfaceRenderer(layout: layout, fonts: fonts, scales: DialScales(model))
        // Each layer painted over an earlier paint of another state, as on the camera: what
        // one paint leaves in a layer's Cairo context must not show in the next.
        renderer.update(Self.earlierState)
        renderer.update(testCase.state)
        var pixels = testCase.state.screen == .live ? Self.picture(layout) : [UInt32](repeating: 0xFF00_0000, count: Self.width * Self.height)
        let comparison = Self.histogram.withUnsafeBufferPointer { bins in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let pro = testCase.state.settings.mode == .pro
                var overlay = InterfaceRenderer.FrameOverlay(
                    controlsOpacity: testCase.controlsOpacity, reveal: testCase.reveal ?? (pro ? 1 : 0),
                    histogram: bins, zebras: testCase.zebras, peaking: testCase.peaking,
                    captureMark: testCase.captureMark)
                overlay.meteringBox = testCase.meteringBox
                overlay.grid = testCase.grid
                overlay.subjectBox = testCase.subjectBox
                overlay.subjectChosen = testCase.subjectChosen
                for box in testCase.otherBoxes {
                    overlay.otherBoxes[overlay.otherBoxCount] = box
                    overlay.otherBoxCount += 1
                }
                InterfaceRenderer.decoratePicture(buffer.baseAddress!, stride: Self.width, overlay, screen: testCase.state.screen,
                                                  viewfinder: renderer.layout.viewfinder)
                InterfaceRenderer.markPicture(buffer.baseAddress!, stride: Self.width, overlay, screen: testCase.state.screen,
                                              viewfinder: renderer.layout.viewfinder)
                renderer.composite(into: buffer.baseAddress!, stride: Self.width, overlay, screen: testCase.state.screen)
                return GoldenImage.compare(testCase.name, pixels: buffer.baseAddress!, width: Self.width,
                                           height: Self.height, stride: Self.width)
            }
        }
        #expect(comparison.matches, "\(comparison)")
    }
}
