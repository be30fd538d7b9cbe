import ReflexCore

/// Review's rules for the photographer's input, while review is open: a swipe, the first
/// dial or the arrow keys go through the card (newest first, so "next" is older); a double
/// tap, a pinch, the second dial or the zoom keys zoom (`ReviewZoom`), a finger then pans;
/// Back, the play key or Escape return to the viewfinder; Delete asks once, with Cancel
/// highlighted; Protect marks the file read-only; Info shows the histogram and the clipped
/// highlights; Index (or a pinch) shows the index; a tap on the picture hides or shows the
/// overlay; a finger on a movie's time bar seeks along it. The shutter's keys are the
/// camera's, not review's (`InterfaceController` closes review and takes them as always).
public struct ReviewController: Sendable {
    /// What an event asked for.
    public struct Outcome: Sendable, Equatable {
        public var command: ReviewRequest?
        /// What is drawn changed (the overlay, the question).
        public var changed = false
        /// A step felt as a detent, an answer as a confirmation.
        public var ticks = 0
        public var confirmed = false
        /// A refusal said on screen ("Protected – …").
        public var notice: String?
        public init() {}
    }

    /// The keys review answers besides the board's play and delete keys.
    public static let leftKeys: [UInt32] = [105]          // KEY_LEFT: newer
    public static let rightKeys: [UInt32] = [106]         // KEY_RIGHT: older
    public static let backKeys: [UInt32] = [1, 158]       // KEY_ESC, KEY_BACK
    public static let confirmKeys: [UInt32] = [28, 0x160] // KEY_ENTER, KEY_OK
    public static let upKeys: [UInt32] = [103]            // KEY_UP: the index's row above
    public static let downKeys: [UInt32] = [108]          // KEY_DOWN

    public private(set) var screen = ReviewScreen()
    private let layout: ReviewLayout
    private let screenWidth: Int, screenHeight: Int
    private var touches: ReviewTouches
    private var scrub = MovieScrub()
    private var wheel = DetentAccumulator()
    /// How far the fingers of the pinch under way closed (below 1) or opened.
    private var pinchProduct = 1.0

    public init(layout: ScreenLayout) {
        self.layout = ReviewLayout(layout)
        (screenWidth, screenHeight) = (layout.width, layout.height)
        touches = ReviewTouches(swipeDistance: self.layout.swipeDistance,
                                tapSlop: layout.density.pixels(fromPoints: InterfaceController.tapSlopPoints))
    }

    /// The review thread's newest item (nil: none yet, or `cardIsEmpty`).
    public mutating func show(_ info: ReviewInfo?, cardIsEmpty: Bool) {
        // Another item (or the same one changed size): the zoom was the old one's.
        if info?.name != screen.info?.name || info?.photoWidth != screen.info?.photoWidth { screen.zoom = nil }
        screen.info = info
        screen.cardIsEmpty = cardIsEmpty
        // The question was about an item that is gone (deleted elsewhere, the card out).
        if info == nil { screen.confirmingDelete = false }
    }

    /// True for the keys that close review (the board's play key counts too: the caller's).
    public static func closes(_ code: UInt32, controls: BoardControls) -> Bool {
        controls.playKeys.contains(code) || backKeys.contains(code)
    }

    /// The zoom is in (not the whole photo): a finger pans it, the arrows still change item.
    private var zoomedIn: Bool { screen.zoom.map { !$0.isWholePhoto } ?? false }

    public mutating func handle(_ event: InputEvent, at now: Double, controls: BoardControls) -> Outcome {
        var outcome = Outcome()
        switch event {
        case .touchDown, .touchMotion, .touchUp, .touchCancel:
            // A finger on a played movie's time bar seeks as it moves.
            let duration = screen.overlayShown && !screen.confirmingDelete
                ? screen.info?.progress.map { Double($0.durationTenths) / 10 } : nil
            let scrubbed = scrub.feed(event, bar: layout.timeBar, reach: layout.infoBar.height / 3, duration: duration)
            if scrubbed.consumed {
                outcome.command = scrubbed.seconds.map(ReviewRequest.seek)
                break
            }
            if case .touchDown = event { pinchProduct = 1 }
            let gesture = touches.feed(event, at: now, panning: zoomedIn || screen.grid != nil)
            if screen.grid != nil {
                indexGesture(gesture, into: &outcome)
                break
            }
            switch gesture {
            case .tap(let x, let y): tap(x: x, y: y, into: &outcome)
            case .doubleTap(let x, let y):
                guard !screen.confirmingDelete else { break }
                // (Its first tap hid or showed the overlay: undone.)
                screen.overlayShown.toggle()
                zoom(into: &outcome) { $0.doubleTap(screenX: x, y: y) }
            case .swipe(let steps) where !screen.confirmingDelete: step(steps, into: &outcome)
            case .pan(let dx, let dy): zoom(into: &outcome) { $0.drag(byScreenX: dx, y: dy) }
            case .pinch(let factor, _, _) where !screen.confirmingDelete && screen.zoom == nil && factor < 1:
                // Pinched in on the whole photo: the index, once the fingers closed by a fifth.
                pinchProduct *= factor
                if pinchProduct < 0.8 { openIndex(into: &outcome) }
            case .pinch(let factor, let x, let y) where !screen.confirmingDelete:
                zoom(into: &outcome) { $0.pinch(by: factor, screenX: x, y: y) }
            default: break
            }
        case .wheel(let encoder, let v120):
            let detents = wheel.feed(v120: v120)
            guard detents != 0 else { break }
            if screen.confirmingDelete {
                screen.deleteHighlighted.toggle()
                outcome.changed = true
                outcome.ticks += 1
            } else if let grid = screen.grid {
                // In the index the first dial moves the highlight; the second turned up opens it.
                if controls.role(ofEncoder: encoder) != .dialPicker { moveInIndex(detents, into: &outcome) }
                if controls.role(ofEncoder: encoder) == .dialPicker && detents > 0 { leaveIndex(at: grid.highlighted, into: &outcome) }
            } else if controls.role(ofEncoder: encoder) == .dialPicker {
                // The second dial zooms, as on a camera's rear dial; down from the whole photo, the index.
                if detents < 0 && screen.zoom == nil { openIndex(into: &outcome) } else { zoom(into: &outcome) { $0.turn(detents) } }
                outcome.ticks += 1
            } else if let progress = screen.info?.progress {
                // A movie once played: the first dial seeks, a second a detent.
                outcome.command = .seek(max(0, progress.seconds + Double(detents)))
                outcome.ticks += 1
            } else {
                step(detents, into: &outcome)
            }
        case .key(let code, true) where screen.confirmingDelete:
            if Self.confirmKeys.contains(code) || controls.nextDialKeys.contains(code) {
                answer(delete: screen.deleteHighlighted, into: &outcome)
            } else if Self.leftKeys.contains(code) || Self.rightKeys.contains(code) {
                screen.deleteHighlighted.toggle()
                outcome.changed = true
                outcome.ticks += 1
            } else if Self.backKeys.contains(code) || controls.deleteKeys.contains(code) {
                answer(delete: false, into: &outcome)
            }
        case .key(let code, true) where screen.grid != nil:
            let columns = screen.grid!.columns
            if Self.leftKeys.contains(code) { moveInIndex(-1, into: &outcome) }
            if Self.rightKeys.contains(code) { moveInIndex(1, into: &outcome) }
            if Self.upKeys.contains(code) { moveInIndex(-columns, into: &outcome) }
            if Self.downKeys.contains(code) { moveInIndex(columns, into: &outcome) }
            if Self.confirmKeys.contains(code) || controls.zoomInKeys.contains(code) {
                leaveIndex(at: screen.grid!.highlighted, into: &outcome)
            }
            if controls.deleteKeys.contains(code) { askToDelete(into: &outcome) }
        case .key(let code, true) where Self.confirmKeys.contains(code) && screen.info?.format == "MOVIE":
            outcome.command = .playOrPause
        case .key(let code, true):
            if Self.leftKeys.contains(code) { step(-1, into: &outcome) }
            if Self.rightKeys.contains(code) { step(1, into: &outcome) }
            if controls.deleteKeys.contains(code) { askToDelete(into: &outcome) }
            if controls.zoomInKeys.contains(code) { zoom(into: &outcome) { $0.turn(1) } }
            if controls.zoomOutKeys.contains(code) {
                if screen.zoom == nil { openIndex(into: &outcome) } else { zoom(into: &outcome) { $0.turn(-1) } }
            }
        case .key:
            break
        }
        return outcome
    }

    // MARK: the index

    /// The index, its highlight on the item shown.
    private mutating func openIndex(into outcome: inout Outcome) {
        guard let info = screen.info, !screen.confirmingDelete else { return }
        screen.zoom = nil
        let grid = ReviewGrid(count: info.count, highlighted: info.position - 1, screenWidth: screenWidth, top: layout.infoBar.height,
                              bottom: layout.buttonBar.y, cellTarget: layout.cellTarget)
        screen.grid = grid
        outcome.command = .grid(grid)
        outcome.changed = true
        outcome.ticks += 1
    }

    /// Back to one item at a time, on item `index`.
    private mutating func leaveIndex(at index: Int, into outcome: inout Outcome) {
        screen.grid = nil
        outcome.command = .single(at: index)
        outcome.changed = true
        outcome.ticks += 1
    }

    private mutating func moveInIndex(_ steps: Int, into outcome: inout Outcome) {
        guard var grid = screen.grid else { return }
        grid.move(steps)
        guard grid != screen.grid else { return }
        screen.grid = grid
        outcome.command = .grid(grid)
        outcome.ticks += 1
    }

    /// In the index a finger scrolls the rows, a tap opens the item under it (or presses the
    /// bars' buttons), fingers spread go back to the one highlighted.
    private mutating func indexGesture(_ gesture: ReviewTouches.Gesture?, into outcome: inout Outcome) {
        guard var grid = screen.grid, !screen.confirmingDelete else {
            if case .tap(let x, let y) = gesture { tap(x: x, y: y, into: &outcome) }
            return
        }
        switch gesture {
        case .tap(let x, let y), .doubleTap(let x, let y):
            let (px, py) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
            if layout.backButton.contains(x: px, y: py) || layout.indexButton.contains(x: px, y: py) {
                return leaveIndex(at: grid.highlighted, into: &outcome)
            }
            if let index = grid.item(atX: px, y: py) { return leaveIndex(at: index, into: &outcome) }
            if layout.buttonBar.contains(x: px, y: py) { tap(x: x, y: y, into: &outcome) }
        case .pan(_, let dy):
            grid.drag(by: Int(dy.rounded()))
            guard grid != screen.grid else { return }
            screen.grid = grid
            outcome.command = .grid(grid)
        case .pinch(let factor, _, _):
            pinchProduct *= factor
            if pinchProduct > 1.25 { leaveIndex(at: grid.highlighted, into: &outcome) }
        default:
            break
        }
    }

    /// Changes the zoom (from the whole photo where there is none yet) and asks for its view;
    /// back at the whole photo, the zoom is let go. A photo without the detail to zoom (a RAW
    /// alone, a movie) says so.
    private mutating func zoom(into outcome: inout Outcome, _ change: (inout ReviewZoom) -> Void) {
        guard let info = screen.info, info.problem == nil else { return }
        guard info.photoWidth > 0 && info.photoHeight > 0 else {
            outcome.notice = InterfaceText.reviewCannotZoom(info)
            return
        }
        var zoom = screen.zoom ?? ReviewZoom(photoWidth: info.photoWidth, photoHeight: info.photoHeight,
                                             screenWidth: screenWidth, screenHeight: screenHeight)
        change(&zoom)
        let next: ReviewZoom? = zoom.isWholePhoto ? nil : zoom
        guard next != screen.zoom else { return }
        screen.zoom = next
        outcome.command = .zoom(next)
        outcome.changed = true
    }

    private mutating func tap(x: Double, y: Double, into outcome: inout Outcome) {
        let (px, py) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
        if screen.confirmingDelete {
            if layout.deleteAnswer.contains(x: px, y: py) { answer(delete: true, into: &outcome) }
            if layout.cancelAnswer.contains(x: px, y: py) { answer(delete: false, into: &outcome) }
            // (A tap beside the question does nothing: it is answered, not dismissed.)
            return
        }
        if let info = screen.info, info.format == "MOVIE" {
            // The play button in the middle (the time bar is `MovieScrub`'s).
            if layout.dialog.contains(x: px, y: py) {
                outcome.command = .playOrPause
                return
            }
        }
        if screen.overlayShown {
            if layout.backButton.contains(x: px, y: py) {
                outcome.command = .close
                return
            }
            if layout.deleteButton.contains(x: px, y: py) { return askToDelete(into: &outcome) }
            if layout.protectButton.contains(x: px, y: py), let info = screen.info {
                outcome.command = .protect(name: info.name, !info.isProtected)
                outcome.confirmed = true
                return
            }
            if layout.indexButton.contains(x: px, y: py) { return openIndex(into: &outcome) }
            if layout.infoButton.contains(x: px, y: py) {
                screen.histogramShown.toggle()
                outcome.changed = true
                return
            }
            if layout.infoBar.contains(x: px, y: py)
                || layout.buttonBar.contains(x: px, y: py) { return }
        }
        screen.overlayShown.toggle()
        outcome.changed = true
    }

    private mutating func step(_ steps: Int, into outcome: inout Outcome) {
        guard screen.info != nil else { return }
        screen.zoom = nil
        outcome.command = .step(steps)
        outcome.ticks += 1
    }

    private mutating func askToDelete(into outcome: inout Outcome) {
        guard let info = screen.info else { return }
        guard !info.isProtected else {
            outcome.notice = InterfaceText.protectedRefusesDelete
            return
        }
        screen.overlayShown = true
        screen.confirmingDelete = true
        screen.deleteHighlighted = false
        outcome.changed = true
    }

    private mutating func answer(delete: Bool, into outcome: inout Outcome) {
        screen.confirmingDelete = false
        // (After a delete the thread shows the next item alone.)
        if delete { screen.grid = nil }
        outcome.changed = true
        outcome.confirmed = true
        if delete, let info = screen.info { outcome.command = .delete(name: info.name) }
    }
}
