import ReflexCore
import ReflexISP

/// Where everything sits on a panel, in pixels. Designed on a 1280x800 landscape panel in
/// points (1/160 inch, the seeds' unit) and scaled to the panel: by its size, so the design
/// fits, and by its density where the kernel or the board knows it, so nothing is ever
/// physically larger than designed (on a 100 dpi monitor the design is drawn at 100/160 and
/// takes part of the screen; on a camera's 200–300 dpi panel the size is the limit).
///
/// The camera is held in both hands: the exposure readout runs along the top edge (read at a
/// glance, never under a thumb), the Pro dials fill the bottom thumb zone, the Auto/Pro
/// toggle sits at the bottom right and the shutter button above it at the right edge, under
/// the right thumb, with the last photo's thumbnail below it. The format badge, at the top
/// bar's right end, is a button too.
public struct ScreenLayout: Sendable, Equatable {
    public static let designWidth = 1280.0
    public static let designHeight = 800.0

    public let width: Int
    public let height: Int
    /// Design units → pixels.
    public let scale: Double
    /// The panel's density: measured, or (unknown) the one at which the design fills it.
    public let density: PanelDensity
    /// The density came from the panel (or its board), not from its size.
    public let densityKnown: Bool
    /// The live picture, letterboxed to the sensor's aspect.
    public let viewfinder: PixelRect
    /// The exposure readout and the indicators; never fades.
    public let topBar: PixelRect
    public let histogram: PixelRect
    public let modeToggle: PixelRect
    /// Everything Pro adds (the dials and the white balance presets); fades and slides.
    public let controls: PixelRect
    /// The four dial faces, in screen coordinates (when fully revealed).
    public let dialSlots: [PixelRect]
    /// The white balance presets' row (shown while the WB dial is selected).
    public let presetSlots: [PixelRect]
    /// The on-screen shutter button (a circle in this square).
    public let shutterButton: PixelRect
    /// The last photo's thumbnail.
    public let thumbnail: PixelRect
    /// The Photo/Video switch above the shutter button.
    public let captureToggle: PixelRect
    /// The format badge at the top bar's right end: a tap changes the format.
    public let formatBadge: PixelRect
    /// The banner under the top bar (a missing card, a photo not saved) and, on the save
    /// problem's, its two answers.
    public let banner: PixelRect
    public let saveBanner: PixelRect
    public let discardButton: PixelRect
    public let retryButton: PixelRect
    /// The quick menu's button (under the HUD bar, at the left), its panel and its lines.
    public let menuButton: PixelRect
    /// AUTO ZOOM, under the quick menu's button.
    public let autoZoomButton: PixelRect
    public let menuPanel: PixelRect
    public let menuRows: [PixelRect]
    /// The geotag consent screen's answers, at the foot of the menu's panel.
    public let consentDenyButton: PixelRect
    public let consentAllowButton: PixelRect
    /// The lens buttons' column, left of the shutter (room for three: 0.5x 1x 3x).
    public let lensColumn: PixelRect
    private let lensSide: Int
    private let lensGap: Int

    public init(width: Int, height: Int, sensorWidth: Int = 16, sensorHeight: Int = 9, density: PanelDensity? = nil) {
        self.width = width
        self.height = height
        let fits = min(Double(width) / ScreenLayout.designWidth, Double(height) / ScreenLayout.designHeight)
        let s = min(fits, density?.pixelsPerPoint ?? fits)
        scale = s
        self.density = density ?? PanelDensity(dotsPerInch: PanelDensity.pointsPerInch * max(fits, 0.01))
        densityKnown = density != nil
        func px(_ design: Double) -> Int { Int((design * s).rounded()) }
        let margin = px(16), gap = px(12)
        viewfinder = PixelRect(x: 0, y: 0, width: width, height: height)
            .fitting(sourceWidth: max(sensorWidth, 1), sourceHeight: max(sensorHeight, 1))
        topBar = PixelRect(x: 0, y: 0, width: width, height: px(64))
        histogram = PixelRect(x: width - margin - px(208), y: topBar.height + gap, width: px(208), height: px(88))
        modeToggle = PixelRect(x: width - margin - px(184), y: height - margin - px(72), width: px(184), height: px(72))
        let shutterSide = px(112)
        shutterButton = PixelRect(x: width - margin - shutterSide - px(36), y: (height - shutterSide) / 2,
                                  width: shutterSide, height: shutterSide)
        thumbnail = PixelRect(x: width - margin - px(184), y: shutterButton.y + shutterSide + gap * 2,
                              width: px(184), height: px(104))
        captureToggle = PixelRect(x: width - margin - px(184), y: shutterButton.y - gap * 2 - px(48),
                                  width: px(184), height: px(48))
        formatBadge = PixelRect(x: width - px(160), y: 0, width: px(160), height: px(64))
        banner = PixelRect(x: (width - px(600)) / 2, y: topBar.height + px(16), width: px(600), height: px(92))
        saveBanner = PixelRect(x: (width - px(640)) / 2, y: topBar.height + px(16), width: px(640), height: px(148))
        let answerWidth = px(160), answerHeight = px(48)
        let answersY = saveBanner.y + saveBanner.height - margin - answerHeight
        discardButton = PixelRect(x: saveBanner.x + saveBanner.width / 2 - gap / 2 - answerWidth, y: answersY,
                                  width: answerWidth, height: answerHeight)
        retryButton = PixelRect(x: saveBanner.x + saveBanner.width / 2 + gap / 2, y: answersY,
                                width: answerWidth, height: answerHeight)
        menuButton = PixelRect(x: margin, y: topBar.height + gap, width: px(64), height: px(64))
        autoZoomButton = PixelRect(x: margin, y: menuButton.y + menuButton.height + gap, width: px(64), height: px(64))
        let rowHeight = px(56), menuHeader = px(52)
        let rowCount = QuickMenuItem.mostLines
        let panel = PixelRect(x: margin, y: topBar.height + gap, width: min(px(560), width - 2 * margin),
                              height: min(menuHeader + rowCount * rowHeight + gap, height - topBar.height - 2 * gap))
        menuPanel = panel
        let fittedRow = min(rowHeight, (panel.height - menuHeader - gap) / rowCount)
        menuRows = (0..<rowCount).map {
            PixelRect(x: panel.x + gap, y: panel.y + menuHeader + $0 * fittedRow, width: panel.width - 2 * gap, height: fittedRow)
        }
        let consentWidth = (panel.width - 3 * margin) / 2, consentHeight = px(56)
        let consentY = panel.y + panel.height - margin - consentHeight
        consentDenyButton = PixelRect(x: panel.x + margin, y: consentY, width: consentWidth, height: consentHeight)
        consentAllowButton = PixelRect(x: panel.x + 2 * margin + consentWidth, y: consentY, width: consentWidth,
                                       height: consentHeight)
        let strip = PixelRect(x: margin, y: height - margin - px(152),
                              width: modeToggle.x - gap - margin, height: px(152))
        let presetsRow = PixelRect(x: margin, y: strip.y - gap - px(56), width: strip.width, height: px(56))
        controls = PixelRect(x: margin, y: presetsRow.y, width: strip.width, height: strip.y + strip.height - presetsRow.y)
        let dialCount = Dial.allCases.count
        let dialWidth = (strip.width - gap * (dialCount - 1)) / dialCount
        dialSlots = (0..<dialCount).map {
            PixelRect(x: strip.x + $0 * (dialWidth + gap), y: strip.y, width: dialWidth, height: strip.height)
        }
        lensSide = px(60)
        lensGap = px(12)
        let columnHeight = 3 * lensSide + 2 * lensGap
        lensColumn = PixelRect(x: shutterButton.x - px(28) - lensSide, y: shutterButton.y + shutterSide / 2 - columnHeight / 2,
                               width: lensSide, height: columnHeight)
        let presetCount = WhiteBalance.presetRow.count
        let presetWidth = (presetsRow.width - gap * (presetCount - 1)) / presetCount
        presetSlots = (0..<presetCount).map {
            PixelRect(x: presetsRow.x + $0 * (presetWidth + gap), y: presetsRow.y, width: presetWidth, height: presetsRow.height)
        }
    }

    /// The buttons of `count` lenses, widest at the bottom (zooming in goes up the column),
    /// centred in the column.
    public func lensButtons(count: Int) -> [PixelRect] {
        (0..<ScreenLayout.lensButtonCount(count)).map { lensButton($0, of: count) }
    }

    /// How many of `count` lenses have a button (the column holds three).
    public static func lensButtonCount(_ count: Int) -> Int { min(max(count, 0), 3) }

    /// The button of lens `index` of `count` (`lensButtons`' element, without the array: a
    /// touch asks it on the loop's thread).
    public func lensButton(_ index: Int, of count: Int) -> PixelRect {
        let used = ScreenLayout.lensButtonCount(count)
        let top = lensColumn.y + (lensColumn.height - (used * lensSide + max(used - 1, 0) * lensGap)) / 2
        return PixelRect(x: lensColumn.x, y: top + (used - 1 - index) * (lensSide + lensGap), width: lensSide, height: lensSide)
    }

    /// A design-unit length in pixels.
    public func pixels(_ design: Double) -> Double { design * scale }
}

extension PixelRect {
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// The rectangle moved into the coordinates of `origin`'s top-left corner.
    public func relative(to origin: PixelRect) -> PixelRect {
        PixelRect(x: x - origin.x, y: y - origin.y, width: width, height: height)
    }
}
