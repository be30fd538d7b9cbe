import CLinux
import ReflexCore
import ReflexISP
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The DRM panel's twin, for hosts without a panel and for tests: two frame buffers in
/// memory, a timer standing in for the panel's vblank (or, for a test that drives the
/// time, a vblank the test ticks), and (with a folder) the picture saved as `frame.png` about once a
/// second. The PNG is encoded on a low-priority thread of its own from a copy, so the
/// realtime loop never waits on zlib or the file system; each file appears whole (written
/// beside, then renamed).
public final class HeadlessDisplay: DisplayOutput, @unchecked Sendable {
    /// What stands in for the panel's vblank.
    public enum Vblanks: Sendable {
        /// A periodic timer at the refresh rate (the camera on a host without a panel).
        case timer
        /// `tickVblank()`: a test's, moved with its own clock.
        case ticked
    }

    public let width: Int
    public let height: Int
    private let timer: FileDescriptor
    public var descriptor: Int32 { timer.rawValue }
    /// Prepared, queued, flipped: where the frame is between two flips.
    private var cycle = FlipCycle()
    public var flipPending: Bool { cycle.flipPending }
    public private(set) var flips = 0
    private let buffers: [UnsafeMutablePointer<UInt32>]
    private var back = 1
    private let folder: String?
    private let snapshotInterval: Double
    private let clock: TimeSource
    private var lastSnapshot = -Double.infinity
    /// The picture on "screen" changed since the last snapshot was taken.
    private var snapshotStale = false
    private let snapshot: UnsafeMutablePointer<UInt32>
    private let writerBusy = Atomic<Bool>(false)
    private let writer = WorkerThread(name: "reflex-png", priority: .background)

    /// A headless display has no panel: unless told one (tests of other panels), the
    /// interface is drawn as the design fills its size.
    public let density: PanelDensity?
    public var densityOrigin: String { density == nil ? "unknown: a headless display has no panel" : "the density it was given" }

    public var summary: String {
        "headless \(width)x\(height) at \(refreshRate) Hz" + (folder.map { ", frames to \($0)/frame.png" } ?? "")
    }

    public let refreshRate: Int

    /// Timer ticks so far, and the tick count when the pending frame was presented.
    private var ticks = 0
    private var queuedTick = 0
    private var missed = 0
    private var firstFlipTick: Int?
    private var lastFlipTick = 0
    public var missedVblanks: Int? { missed }
    public var vblankInterval: Double? { 1 / Double(refreshRate) }
    public var vblanksSpanned: Int? { firstFlipTick.map { lastFlipTick - $0 } }

    /// `clock`: the time snapshots are spaced by (a test moves its own).
    public init(width: Int = 1280, height: Int = 800, refreshRate: Int = 60, folder: String?, snapshotInterval: Double = 1.0,
         density: PanelDensity? = nil, vblanks: Vblanks = .timer, clock: TimeSource = .monotonic) throws(DisplayError) {
        self.clock = clock
        self.density = density
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
        self.folder = folder
        self.snapshotInterval = snapshotInterval
        if let folder {
            mkdir(folder, 0o755)
            guard access(folder, W_OK) == 0 else { throw DisplayError("cannot write PNG frames to \(folder)") }
        }
        // (An eventfd reads as a timerfd does: the ticks since the last read.)
        let timerDescriptor = vblanks == .timer ? reflex_periodic_timer(1_000_000_000 / Int64(refreshRate)) : reflex_event_fd()
        guard timerDescriptor >= 0 else { throw DisplayError("cannot make the vblank timer (errno \(errno))") }
        timer = FileDescriptor(taking: timerDescriptor)
        buffers = (0..<2).map { _ in
            let buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
            buffer.initialize(repeating: 0xFF00_0000, count: width * height)
            return buffer
        }
        snapshot = .allocate(capacity: width * height)
        // The writer does not keep the display alive: deinit stops it and waits first.
        if folder != nil { writer.start { [unowned(unsafe) self] in self.writeSnapshots() } }
    }

    deinit {
        writer.stop()
        buffers.forEach { $0.deallocate() }
        snapshot.deallocate()
    }

    /// A vblank, for a display made with `.ticked` vblanks: the loop polling `descriptor`
    /// wakes, and a pending flip completes when it reads it.
    public func tickVblank() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// The buffer on "screen" (the one flipped to last).
    public var frontPixels: UnsafeMutablePointer<UInt32> { buffers[1 - back] }

    public func handleEvents() -> Bool {
        var expirations: UInt64 = 0
        guard read(descriptor, &expirations, 8) == 8 else { return false }
        ticks += Int(expirations)
        guard flipPending else {
            // A picture that stopped changing right after a snapshot was skipped (too soon,
            // the writer busy) is still saved, once one is due: else frame.png would keep
            // an older picture for good (the "No camera" screen on a loaded machine did).
            if snapshotStale { saveSnapshotIfDue() }
            return false
        }
        // Due at the first tick after it was presented; ticks that went by while the frame
        // was being drawn are vblanks it missed.
        missed += max(0, ticks - queuedTick - 1)
        cycle.flipEnded()
        flips += 1
        if firstFlipTick == nil { firstFlipTick = ticks }
        lastFlipTick = ticks
        back = 1 - back
        snapshotStale = true
        saveSnapshotIfDue()
        return true
    }

    public func abandonFlip() { cycle.flipEnded() }

    public var rotation: PanelRotation { .none }

    /// One plane: the interface is composited into the picture.
    public var hasOverlay: Bool { false }

    @discardableResult
    public func prepare(_ draw: (UnsafeMutablePointer<UInt32>, Int) throws(DisplayError) -> Void) throws(DisplayError) -> Bool {
        try cycle.prepare { () throws(DisplayError) in try draw(buffers[back], width) }
    }

    @discardableResult
    public func queue(_ finish: (UnsafeMutablePointer<UInt32>, Int) -> Void,
                      updatingOverlay: Bool, overlay: (UnsafeMutablePointer<UInt32>, Int) -> Void) throws(DisplayError) -> Bool {
        guard cycle.takePrepared() else { return false }
        finish(buffers[back], width)
        // A tick that came and was not read yet is a vblank this frame missed: counted now,
        // or the frame would seem to have made it.
        var expirations: UInt64 = 0
        if read(descriptor, &expirations, 8) == 8 { ticks += Int(expirations) }
        queuedTick = ticks
        cycle.flipQueued()
        return true
    }

    private func saveSnapshotIfDue() {
        guard folder != nil else { return }
        let seconds = clock.now()
        // A frame is skipped, never waited for, while the writer is still busy.
        guard seconds - lastSnapshot >= snapshotInterval, !writerBusy.load(ordering: .acquiring) else { return }
        lastSnapshot = seconds
        snapshotStale = false
        snapshot.update(from: frontPixels, count: width * height)
        writerBusy.store(true, ordering: .releasing)
        writer.wake()
    }

    private func writeSnapshots() {
        while !writer.isStopping {
            writer.waitForWake()
            guard writerBusy.load(ordering: .acquiring), let folder else { continue }
            let temporary = folder + "/.frame.png.tmp", final = folder + "/frame.png"
            if (try? PNGImage.write(snapshot, width: width, height: height, stride: width, to: temporary)) != nil {
                rename(temporary, final)
            }
            writerBusy.store(false, ordering: .releasing)
        }
    }
}
