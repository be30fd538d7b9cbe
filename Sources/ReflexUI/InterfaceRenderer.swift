import ReflexCore
import ReflexISP

/// The interface over the live picture. Each layer (HUD bar, mode toggle, Pro controls,
/// messages) is drawn with Cairo into its own surface only when what it shows changes; every
/// frame then only blends the layers over the picture — the part that runs at 60 Hz
/// allocates nothing and never waits on Cairo.
public final class InterfaceRenderer {
    public let layout: ScreenLayout
    private let fonts: FontLibrary
    public let scales: DialScales
    private let topBar: CairoCanvas
    private let toggle: CairoCanvas
    private let controls: CairoCanvas
    private let message: CairoCanvas
    private let shutter: CairoCanvas
    private let menuButton: CairoCanvas
    private let menuPanel: CairoCanvas
    private let lensButtons: CairoCanvas
    private let autoZoom: CairoCanvas
    private let autoZoomArea: PixelRect
    /// The self-timer's countdown, and the second it shows as last painted (nil: none shown).
    private let countdown: CairoCanvas
    private let countdownArea: PixelRect
    private var paintedCountdown: Int?
    /// The remote's sheet, and the report it shows as last painted (nil: not shown).
    private let remoteSheet: CairoCanvas
    private let remoteSheetArea: PixelRect
    private var paintedRemote: RemoteReport?
    private var paintedAutoZoom: AutoZoomIndicator?
    /// The lens buttons as last painted (nil: not yet), and whether they are shown.
    private var paintedLenses: (LensSet, Int?)?
    private var lensesShown = false
    private var paintedMenuButton: Bool?
    /// The menu and the settings it shows, as last painted (nil: not painted open).
    private var paintedMenu: (QuickMenu, CameraSettings, Bool)?
    private var menuOpen = false
    private let shutterArea: PixelRect
    private var paintedShutter: (locked: Bool, photo: PhotoThumbnail?, capture: CaptureKind, recording: Bool)?
    private var messageRect: PixelRect?
    /// The state the layers were last brought up to.
    private var updatedState: ViewState?
    private var paintedTopBar: TopBarContent?
    /// Where the HUD's chips, pin and recording time begin, as painted (a cell repainted
    /// alone must end before them).
    private var topBarRightItemsLeft = 0.0
    private var paintedControls: ControlsContent?
    private var paintedMode: ShootingMode?
    private var paintedMessage: (CameraScreen, Bool, SaveProblem?)?
    /// Review's overlay: its layers, and what they show as last painted (nil: review closed).
    private let review: ReviewLayout
    private let reviewInfo: CairoCanvas
    private let reviewButtons: CairoCanvas
    private let reviewCentre: CairoCanvas
    private let reviewHistogram: CairoCanvas
    private var paintedReview: (screen: ReviewScreen, notice: String?)?
    private var reviewCentreShown = false
    /// How many times a layer was redrawn: the loop's figures show how rarely Cairo runs.
    public private(set) var repaints = 0

    public init(layout: ScreenLayout, fonts: FontLibrary, scales: DialScales) {
        self.layout = layout
        self.fonts = fonts
        self.scales = scales
        topBar = CairoCanvas(width: layout.topBar.width, height: layout.topBar.height)
        toggle = CairoCanvas(width: layout.modeToggle.width, height: layout.modeToggle.height)
        controls = CairoCanvas(width: layout.controls.width, height: layout.controls.height)
        message = CairoCanvas(width: layout.width, height: layout.height)
        shutterArea = ShutterPainter.area(layout)
        shutter = CairoCanvas(width: shutterArea.width, height: shutterArea.height)
        menuButton = CairoCanvas(width: layout.menuButton.width, height: layout.menuButton.height)
        menuPanel = CairoCanvas(width: layout.menuPanel.width, height: layout.menuPanel.height)
        lensButtons = CairoCanvas(width: layout.lensColumn.width, height: layout.lensColumn.height)
        autoZoomArea = AutoZoomPainter.area(layout)
        autoZoom = CairoCanvas(width: autoZoomArea.width, height: autoZoomArea.height)
        countdownArea = CountdownPainter.area(layout)
        countdown = CairoCanvas(width: countdownArea.width, height: countdownArea.height)
        remoteSheetArea = RemoteSheetPainter.area(layout)
        remoteSheet = CairoCanvas(width: remoteSheetArea.width, height: remoteSheetArea.height)
        review = ReviewLayout(layout)
        reviewInfo = CairoCanvas(width: review.infoBar.width, height: review.infoBar.height)
        reviewButtons = CairoCanvas(width: review.buttonBar.width, height: review.buttonBar.height)
        reviewCentre = CairoCanvas(width: review.dialog.width, height: review.dialog.height)
        reviewHistogram = CairoCanvas(width: review.histogram.width, height: review.histogram.height)
    }

    /// Redraws the layers whose content differs from `state`.
    public func update(_ state: ViewState) {
        // The same state again (a set brought up to date twice): nothing to work out.
        if state == updatedState { return }
        updatedState = state
        updateReview(state)
        let topBarContent = TopBarContent(state)
        if paintedTopBar != topBarContent {
            topBarRightItemsLeft = TopBarPainter(layout: layout).paint(topBarContent, over: paintedTopBar,
                                                                       rightItemsLeft: topBarRightItemsLeft, on: topBar, fonts: fonts)
            paintedTopBar = topBarContent
            repaints += 1
        }
        if paintedMode != state.settings.mode {
            ModeTogglePainter(layout: layout).paint(state.settings.mode, on: toggle, fonts: fonts)
            paintedMode = state.settings.mode
            repaints += 1
        }
        // The controls are drawn only while Pro shows them; Auto's metering changes skip them.
        if state.settings.mode == .pro, case let content = ControlsContent(state, scales: scales), paintedControls != content {
            ControlsPainter(layout: layout, scales: scales).paint(content, over: paintedControls, on: controls, fonts: fonts)
            paintedControls = content
            repaints += 1
        }
        let recording = state.recording != nil
        if paintedShutter.map({ $0.locked != state.exposureLocked || $0.photo != state.lastPhoto
                                || $0.capture != state.settings.capture || $0.recording != recording }) ?? true {
            ShutterPainter(layout: layout).paint(state, on: shutter, fonts: fonts)
            paintedShutter = (state.exposureLocked, state.lastPhoto, state.settings.capture, recording)
            repaints += 1
        }
        if paintedMenuButton != state.menu.isOpen {
            QuickMenuPainter(layout: layout).paintButton(open: state.menu.isOpen, on: menuButton, fonts: fonts)
            paintedMenuButton = state.menu.isOpen
            repaints += 1
        }
        menuOpen = state.menu.isOpen
        if paintedAutoZoom != state.autoZoom {
            AutoZoomPainter(layout: layout).paint(state.autoZoom, on: autoZoom, fonts: fonts)
            paintedAutoZoom = state.autoZoom
            repaints += 1
        }
        let autoZoomAvailable = state.autoZoom != .unavailable
        if state.menu.isOpen,
           paintedMenu.map({ $0.0 != state.menu || $0.1 != state.settings || $0.2 != autoZoomAvailable }) ?? true {
            QuickMenuPainter(layout: layout).paintPanel(state.menu, settings: state.settings, autoZoomAvailable: autoZoomAvailable,
                                                        on: menuPanel, fonts: fonts)
            paintedMenu = (state.menu, state.settings, autoZoomAvailable)
            repaints += 1
        }
        if state.menu.isShowingRemote {
            if paintedRemote != state.remote {
                RemoteSheetPainter(layout: layout).paint(state.remote, on: remoteSheet, fonts: fonts)
                paintedRemote = state.remote
                repaints += 1
            }
        } else {
            paintedRemote = nil
        }
        lensesShown = state.lenses.offersChoice
        if lensesShown, paintedLenses.map({ $0.0 != state.lenses || $0.1 != state.activeLens }) ?? true {
            LensButtonsPainter(layout: layout).paint(state.lenses, active: state.activeLens, on: lensButtons, fonts: fonts)
            paintedLenses = (state.lenses, state.activeLens)
            repaints += 1
        }
        if let seconds = state.countdown, paintedCountdown != seconds {
            CountdownPainter(layout: layout).paint(seconds, on: countdown, fonts: fonts)
            repaints += 1
        }
        paintedCountdown = state.countdown
        let messageKey = (state.screen, state.storage == .missing, state.saveProblem)
        if paintedMessage.map({ $0 != messageKey }) ?? true {
            messageRect = MessagePainter(layout: layout).paint(state, on: message, fonts: fonts)
            paintedMessage = messageKey
            repaints += 1
        }
    }

    /// Review's layers, each painted again only when what it shows changed; while review is
    /// open the camera's layers wait as they were.
    private func updateReview(_ state: ViewState) {
        guard let screen = state.review else {
            paintedReview = nil
            return
        }
        let painter = ReviewPainter(layout: layout, review: review)
        let before = paintedReview
        if before.map({ $0.screen.info != screen.info || $0.screen.cardIsEmpty != screen.cardIsEmpty || $0.notice != state.notice
                        || $0.screen.zoom?.scale != screen.zoom?.scale })
            ?? true {
            painter.paintInfo(screen, notice: state.notice, on: reviewInfo, fonts: fonts)
            repaints += 1
        }
        if before.map({ $0.screen.info?.isProtected != screen.info?.isProtected || ($0.screen.info == nil) != (screen.info == nil)
                        || $0.screen.histogramShown != screen.histogramShown
                        || ($0.screen.grid == nil) != (screen.grid == nil) }) ?? true {
            painter.paintButtons(screen, on: reviewButtons, fonts: fonts)
            repaints += 1
        }
        if before.map({ $0.screen.confirmingDelete != screen.confirmingDelete || $0.screen.deleteHighlighted != screen.deleteHighlighted
                        || $0.screen.info != screen.info || $0.screen.cardIsEmpty != screen.cardIsEmpty }) ?? true {
            reviewCentreShown = painter.paintCentre(screen, on: reviewCentre, fonts: fonts)
            repaints += 1
        }
        if screen.histogramShown, let counts = screen.info?.histogram,
           before.map({ !$0.screen.histogramShown || $0.screen.info?.histogram != counts }) ?? true {
            painter.paintHistogram(counts, on: reviewHistogram, fonts: fonts)
            repaints += 1
        }
        paintedReview = (screen, state.notice)
    }

    /// What the frame shows besides the layers, decided per frame by the loop.
    public struct FrameOverlay {
        /// The Pro controls' opacity (1, fading to 0.3 when idle).
        public var controlsOpacity: Double
        /// 0 hidden … 1 shown: the controls slide up from the bottom edge.
        public var reveal: Double
        /// The luma histogram to draw, if any.
        public var histogram: UnsafeBufferPointer<UInt32>?
        public var zebras: Bool
        public var peaking: Bool
        /// Moves the zebra stripes, so they crawl like a camera's.
        public var zebraPhase: Int
        /// The mark round the picture that says a photo was taken: 0 none … 1 full.
        public var captureMark: Double
        /// Where Auto meters (a tapped spot), drawn as a box; nil: the whole frame.
        public var meteringBox: PixelRect?
        /// Rule-of-thirds lines over the picture.
        public var grid = false
        /// Auto-zoom's subject, drawn thin and quiet (in the accent when the photographer chose
        /// them with a tap), and the other people it follows, fainter.
        public var subjectBox: PixelRect?
        public var subjectChosen = false
        public var otherBoxes = InlineArray<8, PixelRect>(repeating: PixelRect(x: 0, y: 0, width: 0, height: 0))
        public var otherBoxCount = 0

        public init(controlsOpacity: Double = 1, reveal: Double = 0, histogram: UnsafeBufferPointer<UInt32>? = nil,
                    zebras: Bool = false, peaking: Bool = false, zebraPhase: Int = 0, captureMark: Double = 0) {
            self.captureMark = captureMark
            self.controlsOpacity = controlsOpacity
            self.reveal = reveal
            self.histogram = histogram
            self.zebras = zebras
            self.peaking = peaking
            self.zebraPhase = zebraPhase
        }
    }

    /// What is drawn on the picture itself, from its pixels: focus peaking and zebras.
    /// (No layers needed: the loop does this every frame, whatever the painter is doing.)
    public static func decoratePicture(_ pixels: UnsafeMutablePointer<UInt32>, stride: Int, _ overlay: FrameOverlay,
                                       screen: CameraScreen, viewfinder: PixelRect) {
        guard screen == .live else { return }
        if overlay.peaking { PixelCompositing.peaking(in: viewfinder, pixels, stride: stride) }
        if overlay.zebras { PixelCompositing.zebras(in: viewfinder, pixels, stride: stride, phase: overlay.zebraPhase) }
    }

    /// Marks laid over the picture that answer the photographer (the grid, the metering box,
    /// the flash of a photo taken): drawn at the frame's latch, as late as the interface.
    public static func markPicture(_ pixels: UnsafeMutablePointer<UInt32>, stride: Int, _ overlay: FrameOverlay,
                                   screen: CameraScreen, viewfinder: PixelRect) {
        guard screen == .live else { return }
        if overlay.grid { PixelCompositing.thirds(in: viewfinder, pixels, stride: stride) }
        let thin = max(1, min(viewfinder.width, viewfinder.height) / 500)
        for index in 0..<min(overlay.otherBoxCount, overlay.otherBoxes.count) {
            PixelCompositing.border(in: overlay.otherBoxes[index], pixels, stride: stride, width: thin, opacity: 100)
        }
        if let box = overlay.subjectBox {
            PixelCompositing.border(in: box, pixels, stride: stride, width: thin + 1, opacity: 220,
                                    colour: overlay.subjectChosen ? Palette.accentRGB : 0xFFFFFF)
        }
        if let box = overlay.meteringBox {
            PixelCompositing.border(in: box, pixels, stride: stride, width: max(2, min(viewfinder.width, viewfinder.height) / 300),
                                    opacity: 230)
        }
        if overlay.captureMark > 0 {
            // A white frame round the picture (never a black viewfinder), a few pixels wide.
            let width = max(3, min(viewfinder.width, viewfinder.height) / 80)
            PixelCompositing.border(in: viewfinder, pixels, stride: stride, width: width,
                                    opacity: Int((256 * min(overlay.captureMark, 1)).rounded()))
        }
    }

    /// Lays the interface's layers over `pixels`: the picture (opaque XRGB8888), or a
    /// transparent overlay plane (premultiplied ARGB8888, cleared first by the caller).
    /// A failure screen covers everything.
    public func composite(into pixels: UnsafeMutablePointer<UInt32>, stride: Int, _ overlay: FrameOverlay, screen: CameraScreen) {
        let w = layout.width, h = layout.height
        if let shown = paintedReview?.screen {
            compositeReview(shown, into: pixels, stride: stride, opacity: Int((256 * overlay.controlsOpacity).rounded()))
            return
        }
        if screen != .live, messageRect != nil {
            blend(message, into: pixels, stride: stride, at: 0, 0, opacity: 256)
            return
        }
        blend(topBar, into: pixels, stride: stride, at: layout.topBar.x, layout.topBar.y, opacity: 256)
        if let histogram = overlay.histogram {
            PixelCompositing.histogram(histogram, in: layout.histogram, into: pixels, stride: stride, width: w, height: h,
                                       padding: Int(layout.pixels(8).rounded()))
        }
        if overlay.reveal > 0 {
            let hiddenOffset = Double(h - layout.controls.y)
            let y = layout.controls.y + Int((hiddenOffset * (1 - overlay.reveal)).rounded())
            let opacity = Int((256 * overlay.controlsOpacity * min(1, overlay.reveal * 1.5)).rounded())
            blend(controls, into: pixels, stride: stride, at: layout.controls.x, y, opacity: opacity)
        }
        blend(toggle, into: pixels, stride: stride, at: layout.modeToggle.x, layout.modeToggle.y, opacity: 256)
        blend(shutter, into: pixels, stride: stride, at: shutterArea.x, shutterArea.y, opacity: 256)
        if lensesShown {
            blend(lensButtons, into: pixels, stride: stride, at: layout.lensColumn.x, layout.lensColumn.y, opacity: 256)
        }
        if let messageRect {
            blend(message, region: messageRect, into: pixels, stride: stride, opacity: 256)
        }
        if paintedCountdown != nil {
            blend(countdown, into: pixels, stride: stride, at: countdownArea.x, countdownArea.y, opacity: 256)
        }
        if paintedAutoZoom != .unavailable && !menuOpen {
            blend(autoZoom, into: pixels, stride: stride, at: autoZoomArea.x, autoZoomArea.y, opacity: 256)
        }
        // (The remote's sheet stands in for the menu: the menu shows again when it goes.)
        if menuOpen && paintedRemote == nil {
            blend(menuPanel, into: pixels, stride: stride, at: layout.menuPanel.x, layout.menuPanel.y, opacity: 256)
        }
        if paintedRemote != nil {
            blend(remoteSheet, into: pixels, stride: stride, at: remoteSheetArea.x, remoteSheetArea.y, opacity: 256)
        }
        blend(menuButton, into: pixels, stride: stride, at: layout.menuButton.x, layout.menuButton.y, opacity: 256)
    }

    /// Review's layers over its picture: the details and buttons while the overlay is shown, at
    /// `opacity` (of 256: they fade when left alone, as the Pro dials do); a question or a
    /// message always, whole.
    private func compositeReview(_ shown: ReviewScreen, into pixels: UnsafeMutablePointer<UInt32>, stride: Int, opacity: Int) {
        if shown.overlayShown || shown.info == nil {
            blend(reviewInfo, into: pixels, stride: stride, at: review.infoBar.x, review.infoBar.y, opacity: opacity)
            blend(reviewButtons, into: pixels, stride: stride, at: review.buttonBar.x, review.buttonBar.y, opacity: opacity)
            if shown.histogramShown && shown.info?.histogram.isEmpty == false {
                blend(reviewHistogram, into: pixels, stride: stride, at: review.histogram.x, review.histogram.y, opacity: 256)
            }
        }
        if reviewCentreShown {
            blend(reviewCentre, into: pixels, stride: stride, at: review.dialog.x, review.dialog.y, opacity: 256)
        }
    }

    private func blend(_ canvas: CairoCanvas, into pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                       at x: Int, _ y: Int, opacity: Int) {
        PixelCompositing.blend(canvas.pixels, sourceStride: canvas.stride, width: canvas.width, height: canvas.height,
                               into: pixels, destinationStride: stride, destinationWidth: layout.width,
                               destinationHeight: layout.height, x: x, y: y, opacity: opacity)
    }

    /// Part of a full-screen canvas, in place.
    private func blend(_ canvas: CairoCanvas, region: PixelRect, into pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                       opacity: Int) {
        PixelCompositing.blend(canvas.pixels + region.y * canvas.stride + region.x, sourceStride: canvas.stride,
                               width: region.width, height: region.height, into: pixels, destinationStride: stride,
                               destinationWidth: layout.width, destinationHeight: layout.height,
                               x: region.x, y: region.y, opacity: opacity)
    }
}
