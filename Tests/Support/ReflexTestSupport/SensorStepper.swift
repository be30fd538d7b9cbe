import CLinux
import ReflexHardware
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The simulated sensor's frames made when a test says, not when a timer fires: each `step`
/// moves the test's clock on by one frame's time and lets the sensor deliver that frame,
/// stamped with the clock. A sensor thread under test then sees the same frames at the same
/// moments on any machine, however busy; the test waits for what it expects between steps.
// (@unchecked: its descriptor is an eventfd, which any thread may write and read.)
public final class SensorStepper: FrameStepping, @unchecked Sendable {
    /// The clock the frames are stamped with: give it to the code that compares times with
    /// them (the sensor thread, the presses).
    public let manualClock: ManualClock
    public var clock: any MovedClock { manualClock }
    private let signal: FileDescriptor
    /// The streaming mode's frame time, as the sensor set it (1/30 s until it streams).
    private let frameBits = Atomic<UInt64>((1.0 / 30).bitPattern)
    private let follower = WorkerThread(name: "reflex-stepper")

    public init(clock: ManualClock = ManualClock()) {
        manualClock = clock
        signal = FileDescriptor(taking: reflex_event_fd())
    }

    /// Readable while frames are due (an eventfd: a read returns how many, as a timerfd's does).
    public var descriptor: Int32 { signal.rawValue }

    public var frameSeconds: Double {
        get { Double(bitPattern: frameBits.load(ordering: .acquiring)) }
        set { frameBits.store(newValue.bitPattern, ordering: .releasing) }
    }

    /// `frames` more frames: the clock moved on by their time, the sensor told they are due
    /// (it takes them together, as a late reader of a timer takes its expirations).
    public func step(frames: Int = 1) {
        manualClock.advance(by: frameSeconds * Double(frames))
        var count = UInt64(frames)
        _ = write(signal.rawValue, &count, 8)
    }

    /// Steps on its own thread whenever the last frame has been taken, until `stopFollowing`:
    /// for code under test that waits for frames itself (a still mode's switch). The clock
    /// moves only as fast as the frames are read, so a deadline counted on it is a number of
    /// frames, however slowly the host runs the reader.
    public func startFollowing() {
        _ = follower.start { [self] in
            while !follower.isStopping {
                var pending = pollfd(fd: signal.rawValue, events: Int16(POLLIN), revents: 0)
                if poll(&pending, 1, 0) == 0 { step() } else { usleep(500) }
            }
        }
    }

    public func stopFollowing() { follower.stop() }
}
