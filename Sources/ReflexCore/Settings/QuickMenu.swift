/// The quick menu's state: open or not, and the line the dials are on. Walked by the dials
/// (one moves the highlight, one changes the value) and by touch (see InterfaceController).
///
/// Over it, the first time geotag is turned on, the screen that asks for consent (docs/camera.md,
/// Geotagging): it answers Allow or Don't allow, and the dials move between the two.
public struct QuickMenu: Sendable, Equatable {
    public private(set) var isOpen = false
    public private(set) var highlighted = QuickMenuItem.format
    /// The geotag consent screen is up (over the open menu).
    public private(set) var isAskingConsent = false
    /// On the consent screen, the answer the dials are on: Don't allow until moved.
    public private(set) var consentAllowHighlighted = false
    /// The remote's sheet is up (over the open menu): the network to join, the page, their QR
    /// codes and the pairing code.
    public private(set) var isShowingRemote = false

    public init() {}

    public mutating func open() {
        isOpen = true
    }

    /// Closing the menu answers an open consent screen with Don't allow, and takes the
    /// remote's sheet down.
    public mutating func close() {
        isOpen = false
        isShowingRemote = false
        endConsent()
    }

    /// The remote's sheet, over the menu (opened with it if it was closed).
    public mutating func showRemote() {
        isOpen = true
        isShowingRemote = true
    }

    public mutating func hideRemote() { isShowingRemote = false }

    /// Moves the highlight `steps` lines, round the lines shown for `settings` (from the
    /// Drive line if the one highlighted was a drive mode's no longer shown).
    /// (Line by line, without an array of the lines: the dials' path allocates nothing.)
    public mutating func move(by steps: Int, in settings: CameraSettings) {
        var item = highlighted.isShown(for: settings) ? highlighted : .drive
        for _ in 0..<steps.magnitude { item = item.neighbour(steps > 0 ? 1 : -1, for: settings) }
        highlighted = item
    }

    public mutating func highlight(_ item: QuickMenuItem) { highlighted = item }

    /// Shows the consent screen, Don't allow highlighted.
    public mutating func askConsent() {
        isAskingConsent = true
        consentAllowHighlighted = false
    }

    /// The dials move between the two answers.
    public mutating func moveConsentChoice() { consentAllowHighlighted.toggle() }

    public mutating func endConsent() {
        isAskingConsent = false
        consentAllowHighlighted = false
    }
}
