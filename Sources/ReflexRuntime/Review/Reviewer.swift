import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem
import ReflexUI
import Synchronization

/// Review's thread: it owns the card's files for review. Told by the realtime loop what the
/// photographer asked (`ReviewRequest`), it lists the card, decodes the item to show fitted to
/// the panel (`ReviewLoader`), lays it into a panel-sized frame and hands the frame to the
/// loop through a triple buffer, so the loop copies it to the screen with no lock, no
/// allocation and no file. Then it decodes the neighbours ahead of a swipe, unless asked
/// something new, into a cache held within a budget of bytes; deletes and protects happen
/// here too, with the card's own care (`CardEraser`, `CardProtection`).
///
/// It runs at a yielding priority: below the sensor and the saving of photos, whose work
/// comes first, above the background threads; the loop never waits for it.
public final class Reviewer: @unchecked Sendable {
    public static let priority = WorkerThread.Priority.yielding(nice: 2)

    private let card: String
    private let speaker: String?
    private let badges: IndexBadges?
    private let clock: TimeSource
    /// When the playing movie's next picture is due on `clock` (its bits; infinity: none), so
    /// a test's clock waits for it as for a command.
    private let movieDue = Atomic<UInt64>(Double.infinity.bitPattern)
    /// The movie playing (or paused once played), and the overlay's words for the item shown.
    private var playback: MoviePlayback?
    private var shownInfo: ReviewInfo?
    private let width: Int, height: Int
    private let log: @Sendable (String) -> Void
    private let thread = WorkerThread(name: "reflex-review", priority: Reviewer.priority)
    private let commands = HandOffQueue<ReviewRequest>(capacity: 32)
    private let frames = TripleBuffer<ReviewFrame> { ReviewFrame() }
    /// Woken when a frame is ready: the loop's thread (set by the loop before it starts this).
    var wakes: WorkerThread?
    /// Commands sent by the loop and carried out here (a test's clock waits for these).
    private let sent = Atomic<Int>(0)
    private let carriedOut = Atomic<Int>(0)

    // The loop's side.
    /// Openings of review asked; a frame of an earlier one is not shown.
    public private(set) var sessionsAsked = 0

    // The thread's side.
    private var cursor: ReviewCursor?
    /// What has been read from the card to show (decoded items, the index's cells, a detail).
    private var pictures: ReviewPictures
    private var isOpen = false
    private var session = 0
    /// The index shown instead of one item (nil: one item).
    private var grid: ReviewGrid?
    /// The item shown zoomed in (nil: whole).
    private var zoom: ReviewZoom?

    /// Review of the card mounted at `card`, on a panel of `width` × `height`.
    /// `speaker`: the ALSA device a movie's sound plays on (nil: silent); `badges`: the marks
    /// laid on the index's cells (nil: none).
    /// `clock`: a movie's pictures are shown on it (a test's moves only when the test says).
    public init(card: String, width: Int, height: Int, speaker: String? = nil, badges: IndexBadges? = nil,
                clock: TimeSource = .monotonic, log: @escaping @Sendable (String) -> Void) {
        (self.card, self.width, self.height, self.speaker, self.badges, self.log) = (card, width, height, speaker, badges, log)
        self.clock = clock
        pictures = ReviewPictures(card: card, width: width, height: height, log: log)
    }

    public func start() -> Bool { thread.start { self.run() } }

    public func stop() { thread.stop() }

    // MARK: the loop's side (never waits, never allocates)

    /// Passes on what the photographer asked; false if eight and more are still waiting.
    @discardableResult
    public func send(_ command: ReviewRequest) -> Bool {
        // (Counted before it goes: the thread may carry it out before this returns.)
        sent.add(1, ordering: .releasing)
        guard commands.send(command) else {
            sent.subtract(1, ordering: .releasing)
            return false
        }
        if command == .open { sessionsAsked += 1 }
        thread.wake()
        return true
    }

    /// The newest frame of the review open now, if one came since the last call.
    public func newestFrame() -> ReviewFrame? {
        guard frames.takeNewest() else { return nil }
        return shownFrame
    }

    /// The frame taken last, if it belongs to the review open now.
    public var shownFrame: ReviewFrame? {
        let frame = frames.current
        return frame.session == sessionsAsked && frame.width > 0 ? frame : nil
    }

    /// Whether commands sent are still being carried out, or a movie's picture is due and not
    /// yet out (the thread is woken for it: on a test's clock, its time came by the test).
    public var isBusy: Bool {
        if carriedOut.load(ordering: .acquiring) < sent.load(ordering: .acquiring) { return true }
        guard clock.now() >= Double(bitPattern: movieDue.load(ordering: .acquiring)) else { return false }
        thread.wake()
        return true
    }

    // MARK: the thread

    private func run() {
        while !thread.isStopping {
            // (A movie playing wakes the thread for its next picture, and its sound's top-up.)
            let due = playback?.secondsUntilDue
            thread.waitForWake(milliseconds: due.map { Int32(max(1, ($0 * 1000).rounded(.up))) } ?? -1)
            var (show, handled, opened) = (false, 0, false)
            let started = monotonicSeconds()
            while let command = commands.receive() {
                show = carryOut(command) || show
                handled += 1
                if command == .open { opened = true }
            }
            if show && isOpen { publish() }
            if isOpen { playOn() }
            if opened && isOpen { logOpening(seconds: monotonicSeconds() - started) }
            movieDue.store((playback?.dueAt ?? .infinity).bitPattern, ordering: .releasing)
            // (Counted once the frame they asked for is out: until then a test's clock waits.)
            carriedOut.add(handled, ordering: .releasing)
            // (Not while zoomed in: the photographer is looking at this one, and a pan must not
            // wait for a neighbour's decode.)
            let nothingAsked = { self.commands.count == 0 && !self.thread.isStopping }
            if isOpen && zoom == nil && grid == nil, let cursor { pictures.readAhead(cursor.neighbours, while: nothingAsked) }
            if isOpen, let grid, let cursor { pictures.readCells(around: grid, of: cursor.items, while: nothingAsked) }
        }
    }

    /// Carries out one command; true if the item shown changed.
    private func carryOut(_ command: ReviewRequest) -> Bool {
        // Anything but the movie's own controls ends its playback.
        switch command {
        case .playOrPause, .seek: break
        default: playback = nil
        }
        switch command {
        case .open:
            (zoom, grid) = (nil, nil)
            pictures.forgetDetail()
            session += 1
            isOpen = true
            cursor = ReviewCursor(items: CardCatalog.items(onCardAt: card))
            return true
        case .close:
            // The decoded pictures go back to the camera: shooting needs the memory more.
            isOpen = false
            pictures.forgetAll()
            grid = nil
            return false
        case .step(let steps):
            guard isOpen, cursor != nil else { return false }
            cursor!.move(steps)
            zoom = nil
            return true
        case .zoom(let next):
            guard isOpen, cursor != nil else { return false }
            zoom = next
            return true
        case .grid(let next):
            guard isOpen, cursor != nil else { return false }
            (grid, zoom) = (next, nil)
            cursor!.select(next.highlighted)
            return true
        case .single(let index):
            guard isOpen, cursor != nil else { return false }
            (grid, zoom) = (nil, nil)
            cursor!.select(index)
            return true
        case .delete(let name):
            guard isOpen, let item = cursor?.items.first(where: { $0.name == name }) else { return false }
            do {
                try CardEraser.delete(item, onCardAt: card)
                log("review: deleted \(item.name): " + item.files.map(\.name).joined(separator: " "))
            } catch {
                log("review: cannot delete \(item.name): \(error)")
            }
            pictures.forget(item.name)
            grid = nil
            relist()
            return true
        case .playOrPause:
            guard isOpen, let item = cursor?.current, let movie = item.files.first(where: { $0.kind == .movie }) else { return false }
            if playback == nil {
                do {
                    playback = try MoviePlayback(path: PhotoCard(root: card).dcim + "/" + item.folder + "/" + movie.name, width: width,
                                                 height: height, speakerDevice: speaker, clock: clock, log: log)
                    log("review: playing \(item.name) (\(playback!.player.decoderName))")
                } catch {
                    log("review: cannot play \(item.name): \(error)")
                    return false
                }
            }
            if playback!.playing {
                playback!.pause()
                publishMovie(playback!)
            } else {
                playback!.play()
            }
            return false
        case .seek(let seconds):
            playback?.seek(to: seconds)
            return false
        case .protect(let name, let protect):
            guard isOpen, let item = cursor?.items.first(where: { $0.name == name }) else { return false }
            do {
                try CardProtection.setProtected(item, protect, onCardAt: card)
            } catch {
                log("review: cannot \(protect ? "protect" : "unprotect") \(item.name): \(error)")
            }
            relist()
            return true
        }
    }

    /// The card listed again after a change: the same item, or the one now in its place.
    private func relist() {
        let items = CardCatalog.items(onCardAt: card)
        if cursor?.refresh(items) != true { cursor = ReviewCursor(items: items) }
    }

    /// The item under the cursor (decoded now unless cached) laid into the writable frame and
    /// handed to the loop.
    private func publish() {
        let frame = writableFrame()
        frame.session = session
        guard let cursor else {
            frame.info = nil
            frame.cardIsEmpty = true
            frame.picture = PixelRect(x: 0, y: 0, width: 0, height: 0)
            clear(frame)
            return finishPublishing()
        }
        if let grid { return publishIndex(grid, cursor: cursor, into: frame) }
        let item = cursor.current
        let decoded = pictures.decode(item)
        var info = ReviewInfo(name: item.name, number: item.shownNumber, position: cursor.index + 1,
                              count: cursor.items.count, format: item.format)
        info.taken = decoded.loaded.taken
        info.exposure = decoded.loaded.exposure
        info.hasLocation = decoded.loaded.hasLocation
        info.isProtected = item.isProtected
        info.problem = decoded.loaded.problem
        info.movieLength = decoded.loaded.picture?.movieSeconds.map(InterfaceText.movieLength)
        info.histogram = decoded.histogram?.counts ?? []
        if let picture = decoded.loaded.picture, picture.movieSeconds == nil, !picture.isPreview {
            let sideways = picture.orientation == .turnedLeft || picture.orientation == .turnedRight
            (info.photoWidth, info.photoHeight) = sideways ? (picture.fileHeight, picture.fileWidth)
                : (picture.fileWidth, picture.fileHeight)
        }
        frame.info = info
        shownInfo = info
        frame.cardIsEmpty = false
        clear(frame)
        if let zoom, let detail = pictures.detail(of: item, for: zoom) {
            frame.pixels.withUnsafeMutableBufferPointer { detail.render(zoom, into: $0.baseAddress!, panelStride: width) }
            frame.picture = ReviewDetail.place(of: zoom)
            frame.clipped = []
        } else if let picture = decoded.loaded.picture {
            frame.picture = ReviewPicturePainter.place(width: picture.width, height: picture.height, panelWidth: width,
                                                       panelHeight: height)
            paint(picture.pixels, width: picture.width, height: picture.height, into: frame)
            frame.clipped = decoded.histogram?.clipped ?? []
        } else {
            frame.picture = PixelRect(x: 0, y: 0, width: 0, height: 0)
            frame.clipped = []
        }
        finishPublishing()
    }

    /// The journal says what review found and how long the first picture took (for a board's
    /// integrator: a slow card shows here).
    private func logOpening(seconds: Double) {
        guard let cursor else { return log("review: nothing on the card at \(card)") }
        log("review: \(cursor.items.count) item(s) on the card; \(cursor.current.name) (\(cursor.current.format)) shown "
            + "after \(Int((seconds * 1000).rounded())) ms")
    }

    /// The frame the thread fills next, made the panel's size the first time.
    private func writableFrame() -> ReviewFrame {
        let frame = frames.writable
        if frame.pixels.count != width * height {
            frame.pixels = [UInt32](repeating: ReviewPicturePainter.background, count: width * height)
            (frame.width, frame.height) = (width, height)
        }
        return frame
    }

    private func finishPublishing() {
        frames.publish()
        wakes?.wake()
    }

    private func clear(_ frame: ReviewFrame) {
        frame.pixels.withUnsafeMutableBufferPointer { ReviewPicturePainter.clear($0) }
    }

    /// A picture centred on the frame (`ReviewPicturePainter`).
    private func paint(_ pixels: [UInt32], width pictureWidth: Int, height pictureHeight: Int, into frame: ReviewFrame) {
        pixels.withUnsafeBufferPointer { source in
            frame.pixels.withUnsafeMutableBufferPointer { panel in
                ReviewPicturePainter.paint(source, width: pictureWidth, height: pictureHeight, on: panel, panelWidth: width,
                                           panelHeight: height)
            }
        }
    }

    // MARK: a movie

    /// The movie's picture whose time came, shown with its progress; the sound topped up; at
    /// the end it stops there.
    private func playOn() {
        guard let playback else { return }
        playback.topUpSound()
        if playback.pictureIsDue() {
            publishMovie(playback)
            playback.decodeNext()
        } else if playback.stopIfEnded() {
            if playback.dropped > 0 { log("review: \(playback.dropped) picture(s) of the movie came too late and were passed over") }
            publishMovie(playback)
        }
    }

    /// The movie's picture in the middle of the panel, with the item's words and where it is.
    private func publishMovie(_ playback: MoviePlayback) {
        guard var info = shownInfo else { return }
        let frame = writableFrame()
        info.progress = MovieProgress(seconds: playback.playing ? playback.player.pictureTime : playback.position,
                                      duration: playback.player.duration, playing: playback.playing)
        (frame.info, frame.session, frame.cardIsEmpty, frame.clipped) = (info, session, false, [])
        let player = playback.player
        frame.picture = ReviewPicturePainter.place(width: player.pictureWidth, height: player.pictureHeight, panelWidth: width,
                                                   panelHeight: height)
        clear(frame)
        paint(player.picture, width: player.pictureWidth, height: player.pictureHeight, into: frame)
        finishPublishing()
    }

    // MARK: the index

    /// The index laid into `frame`: each visible item's small picture fitted in its cell (the
    /// rows clipped to the grid's band), the highlighted cell framed in the accent; the
    /// overlay says what the highlighted item is.
    private func publishIndex(_ grid: ReviewGrid, cursor: ReviewCursor, into frame: ReviewFrame) {
        let item = cursor.items[grid.highlighted]
        var info = ReviewInfo(name: item.name, number: item.shownNumber, position: grid.highlighted + 1,
                              count: cursor.items.count, format: item.format)
        info.isProtected = item.isProtected
        info.taken = LocalTime.text(item.modified)
        frame.info = info
        frame.cardIsEmpty = false
        frame.picture = PixelRect(x: 0, y: 0, width: 0, height: 0)
        frame.clipped = []
        clear(frame)
        frame.pixels.withUnsafeMutableBufferPointer { panel in
            let painter = ReviewIndexPainter(grid: grid, panel: panel.baseAddress!, width: width, height: height)
            for index in grid.visibleItems where index < cursor.items.count {
                guard let picture = pictures.cellPicture(cursor.items[index], grid: grid) else {
                    painter.paintEmptyCell(index)
                    continue
                }
                picture.pixels.withUnsafeBufferPointer {
                    painter.paintPicture($0, pictureWidth: picture.width, pictureHeight: picture.height, inCell: index)
                }
            }
            // What each item is: its format where more than a JPEG, a padlock if protected.
            if let badges {
                for index in grid.visibleItems where index < cursor.items.count {
                    let item = cursor.items[index]
                    painter.paintBadges(IndexBadges.kinds(format: item.format, isProtected: item.isProtected), inCell: index,
                                        from: badges)
                }
            }
            painter.paintHighlight()
        }
        finishPublishing()
    }
}
