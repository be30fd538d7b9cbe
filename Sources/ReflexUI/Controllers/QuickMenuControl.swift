import ReflexCore

/// The quick menu's rules (the Menu button, or the board's menu key): it holds what the dials
/// do not — format, the drive (and its mode's own choices), exposure compensation, zebras,
/// peaking, the grid, JPEG quality, geotag, auto-zoom. A tap on a line's value steps it (right
/// half forward, left half back); the encoder that turns the selected dial changes the
/// highlighted line's value, the dial picker (or a push) moves the highlight.
///
/// The first time geotag is turned on, a screen over the menu explains what it writes and
/// asks: Allow turns it on (and is remembered), Don't allow leaves it off. Answered by a tap,
/// or by the dials (a turn moves between the answers, a push picks); the menu key, the
/// shutter or closing the menu is Don't allow.
public struct QuickMenuControl: Sendable {
    public private(set) var menu = QuickMenu()
    /// Why this camera cannot turn the remote on (no board network, no page installed); nil:
    /// it can. The Remote line then says why instead of changing.
    public var remoteUnavailable: String?

    public init() {}

    /// The menu key or button: open ⇄ closed.
    mutating func toggle(into outcome: inout InterfaceController.Outcome) {
        if menu.isOpen { menu.close() } else { menu.open() }
        outcome.ticks += 1
    }

    mutating func close() { menu.close() }

    /// `detents` of encoder `wheel` while the menu is open: the consent's other answer, the
    /// highlighted line's value, or the highlight moved.
    mutating func turn(wheel: Int, detents: Int, controls: BoardControls, model: inout CameraModel,
                       autoZoomAvailable: Bool, into outcome: inout InterfaceController.Outcome) {
        if menu.isAskingConsent {
            // Two answers: any turn moves to the other.
            menu.moveConsentChoice()
            outcome.ticks += 1
        } else if Self.encoderChangesValue(wheel, controls: controls) {
            stepValue(menu.highlighted, by: detents, model: &model, autoZoomAvailable: autoZoomAvailable, into: &outcome)
        } else {
            move(by: detents, settings: model.settings, into: &outcome)
        }
    }

    /// The highlight moved `steps` lines.
    mutating func move(by steps: Int, settings: CameraSettings, into outcome: inout InterfaceController.Outcome) {
        menu.move(by: steps, in: settings)
        outcome.ticks += 1
    }

    /// A tap on `item`'s line: highlighted, and stepped when on its value (`side` ±1). A tap on
    /// the Remote line's title while it is on shows its sheet again.
    mutating func tap(_ item: QuickMenuItem, side: Int, model: inout CameraModel, autoZoomAvailable: Bool,
                      into outcome: inout InterfaceController.Outcome) {
        if item == .remote && side == 0 && model.settings.remote {
            menu.highlight(item)
            menu.showRemote()
            outcome.ticks += 1
            return
        }
        if menu.highlighted != item {
            menu.highlight(item)
            outcome.ticks += 1
        }
        if side != 0 { stepValue(item, by: side, model: &model, autoZoomAvailable: autoZoomAvailable, into: &outcome) }
    }

    /// The remote's sheet taken down (a tap, the menu key, a push): the menu shows again.
    mutating func hideRemote(into outcome: inout InterfaceController.Outcome) {
        menu.hideRemote()
        outcome.ticks += 1
    }

    /// Allow: geotag on, consent remembered, confirmed under the finger. Don't allow: it
    /// stays off. Either way the menu shows again.
    mutating func answerConsent(allow: Bool, model: inout CameraModel, into outcome: inout InterfaceController.Outcome) {
        menu.endConsent()
        if allow {
            outcome.settingsChanged = model.update {
                $0.geotagConsent = true
                $0.geotag = true
            }
            outcome.confirmed = true
        } else {
            outcome.ticks += 1
        }
    }

    /// A line's value stepped: a tick, a bump at exposure compensation's ends.
    private mutating func stepValue(_ item: QuickMenuItem, by steps: Int, model: inout CameraModel, autoZoomAvailable: Bool,
                                    into outcome: inout InterfaceController.Outcome) {
        // Turned on for the first time: the consent screen first.
        if item == .geotag, !model.settings.geotag, !model.settings.geotagConsent {
            menu.askConsent()
            outcome.ticks += 1
            return
        }
        // No person detector on this camera: auto-zoom's lines say why, and change nothing.
        if (item == .autoZoom || item == .autoZoomFraming) && !autoZoomAvailable {
            outcome.notice = InterfaceText.noAutoZoom
            outcome.bumped = true
            return
        }
        if item == .remote, !model.settings.remote, let reason = remoteUnavailable {
            outcome.notice = reason
            outcome.bumped = true
            return
        }
        // An action: every paired phone must pair again.
        if item == .forgetPhones {
            outcome.forgetPhones = true
            outcome.notice = InterfaceText.phonesForgotten
            outcome.confirmed = true
            return
        }
        let before = model.settings.format
        let result = item.step(by: steps, in: &model)
        outcome.settingsChanged = outcome.settingsChanged || result.changed
        // Just turned on: the sheet that tells a phone where to go.
        if item == .remote && model.settings.remote && result.changed { menu.showRemote() }
        if result.bumped { outcome.bumped = true } else if result.changed { outcome.ticks += 1 }
        Self.formatNotice(from: before, model: model, into: &outcome)
    }

    /// The format went round past RAW+JPEG, where Enhanced RAW would come on a camera that
    /// has it: the one-line reason this one does not.
    static func formatNotice(from before: CaptureFormat, model: CameraModel, into outcome: inout InterfaceController.Outcome) {
        guard let reason = model.limits.enhancedRawUnavailable, model.availableFormats.count > 1 else { return }
        let after = model.settings.format
        if (before == .rawPlusJPEG && after == .jpeg) || (before == .jpeg && after == .rawPlusJPEG) { outcome.notice = reason }
    }

    /// In the menu, the encoder that turns the selected dial (or a board's first dial of its
    /// own) changes the value; the dial picker and the others move the highlight.
    static func encoderChangesValue(_ wheel: Int, controls: BoardControls) -> Bool {
        switch controls.role(ofEncoder: wheel) {
        case .selectedDial: true
        case .dialPicker: false
        case .dial: controls.encoders.firstIndex { if case .dial = $0.role { true } else { false } } == wheel
        }
    }
}
