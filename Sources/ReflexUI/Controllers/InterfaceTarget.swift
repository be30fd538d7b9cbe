import ReflexCore

/// What a touch came down on: a control of the viewfinder, the open menu or the consent
/// screen, or the picture.
enum InterfaceTarget: Equatable, Sendable {
    case toggle
    case dial(Dial)
    case preset(WhiteBalance)
    case shutter
    case captureToggle
    case format
    case saveAnswer(SaveDecision)
    case picture
    case menuButton
    case autoZoomButton
    /// A lens button (an index in `lenses`).
    case lens(Int)
    /// A line of the open menu; `side` -1 or +1 on its value's left or right half, 0 its title.
    case menuLine(QuickMenuItem, side: Int)
    /// Inside the open menu's panel, on no line.
    case menuPanel
    /// Anywhere else while the menu is open: closes it.
    case outsideMenu
    /// The last photo's thumbnail: opens review.
    case thumbnail
    /// An answer on the geotag consent screen (true: Allow).
    case consentAnswer(Bool)
    /// Anywhere else while the consent screen is up: nothing.
    case consentScreen
    /// Anywhere while the remote's sheet is up: takes it down.
    case remoteSheet
    /// A touch that has done its part as it came down (it cancelled the self-timer).
    case spent
}

extension InterfaceController {
    /// What is under a point. The Pro controls only count while they are on screen.
    func target(x: Double, y: Double) -> InterfaceTarget {
        let px = Int(x.rounded(.down)), py = Int(y.rounded(.down))
        if layout.shutterButton.contains(x: px, y: py) { return .shutter }
        if menu.isShowingRemote { return .remoteSheet }
        if menu.isAskingConsent {
            if layout.consentAllowButton.contains(x: px, y: py) { return .consentAnswer(true) }
            if layout.consentDenyButton.contains(x: px, y: py) { return .consentAnswer(false) }
            return .consentScreen
        }
        if menu.isOpen {
            for (index, row) in layout.menuRows.enumerated() where row.contains(x: px, y: py) {
                guard let item = QuickMenuItem.line(at: index, for: model.settings) else { break }
                // The value is the line's right half; its halves step back and forward.
                let valueStart = row.x + row.width / 2, valueMiddle = row.x + row.width * 3 / 4
                return .menuLine(item, side: px < valueStart ? 0 : px < valueMiddle ? -1 : 1)
            }
            return layout.menuPanel.contains(x: px, y: py) ? .menuPanel : .outsideMenu
        }
        if layout.menuButton.contains(x: px, y: py) { return .menuButton }
        if autoZoomAvailable && layout.autoZoomButton.contains(x: px, y: py) { return .autoZoomButton }
        // (Index loops, no arrays made: a touch is taken on the loop's thread.)
        if lenses.offersChoice {
            let count = lenses.lenses.count
            for index in 0..<ScreenLayout.lensButtonCount(count) where layout.lensButton(index, of: count).contains(x: px, y: py) {
                return .lens(index)
            }
        }
        if saveProblemShown {
            if layout.retryButton.contains(x: px, y: py) { return .saveAnswer(.retry) }
            if layout.discardButton.contains(x: px, y: py) { return .saveAnswer(.discard) }
        }
        if layout.formatBadge.contains(x: px, y: py) { return .format }
        if layout.thumbnail.contains(x: px, y: py) { return .thumbnail }
        if layout.captureToggle.contains(x: px, y: py) { return .captureToggle }
        if layout.modeToggle.contains(x: px, y: py) { return .toggle }
        guard model.settings.mode == .pro else { return .picture }
        if model.settings.selectedDial == .whiteBalance {
            let presets = WhiteBalance.presetRow
            for index in layout.presetSlots.indices where index < presets.count && layout.presetSlots[index].contains(x: px, y: py) {
                return .preset(presets[index])
            }
        }
        for position in layout.dialSlots.indices where layout.dialSlots[position].contains(x: px, y: py) {
            guard let dial = Dial(position: position) else { break }
            return model.offers(dial) ? .dial(dial) : .picture
        }
        return .picture
    }
}
