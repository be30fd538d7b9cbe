/// When the realtime loop makes the two parts of a frame for the coming vblank.
///
/// The picture (the ISP: milliseconds) starts early enough to be done before the latch, with
/// room for its slowest recent frame twice over. The latch (the marks over the picture, the
/// interface's layers, the commit: a fraction of a millisecond) comes as late as it safely
/// can, so a touch or a detent that arrives while the picture is rendered still shows at
/// that vblank: the wait from input to screen stays within a frame and the latch's lead
/// (the preview answers within 16 ms: docs/camera.md, The controls).
///
/// The latch's lead is its slowest recent run plus a margin for the wake-up and the commit
/// to reach the hardware; a single run slower than all others in the last second (a host
/// that took the CPU for a moment) is not planned for, and costs a miss at worst. A latch
/// begun on time and committed before its vblank whose frame still missed it (a slow driver,
/// a busy machine) adds half a millisecond to the margin; two seconds without a miss take a
/// tenth back. Fixed storage: asked every frame.
public struct FrameDeadlines: Sendable {
    /// The frames whose slowest run sets each lead (a second at 60 Hz).
    public static let window = 60
    public static let minimumMargin = 0.0005
    public static let maximumMargin = 0.006
    /// Room after the slowest recent picture beyond twice it: a picture of 0.3 ms still
    /// starts 2 ms before its latch.
    public static let pictureSlack = 0.002
    static let marginStep = 0.0005
    static let relaxAfterFrames = 120

    private var pictureMicroseconds = [UInt32](repeating: 0, count: FrameDeadlines.window)
    private var latchMicroseconds = [UInt32](repeating: 0, count: FrameDeadlines.window)
    private var recorded = 0
    public private(set) var margin = FrameDeadlines.minimumMargin
    private var framesSinceMiss = 0

    public init() {}

    /// One frame's two parts, as long as they took.
    public mutating func record(pictureSeconds: Double, latchSeconds: Double) {
        pictureMicroseconds[recorded % FrameDeadlines.window] = FrameDeadlines.microseconds(pictureSeconds)
        latchMicroseconds[recorded % FrameDeadlines.window] = FrameDeadlines.microseconds(latchSeconds)
        recorded += 1
    }

    /// A latched frame reached the screen: `missed` whether it missed the vblank it was
    /// made for, `latchedOnTime` whether its latch began when due and was committed before
    /// that vblank (a late picture is the picture's lead to learn, and a latch run past the
    /// vblank its own slowness, not the latch's lead).
    public mutating func flipCompleted(missed: Bool, latchedOnTime: Bool) {
        if missed && latchedOnTime {
            margin = min(margin + FrameDeadlines.marginStep, FrameDeadlines.maximumMargin)
            framesSinceMiss = 0
            return
        }
        framesSinceMiss += 1
        if framesSinceMiss >= FrameDeadlines.relaxAfterFrames {
            margin = max(margin - FrameDeadlines.marginStep / 5, FrameDeadlines.minimumMargin)
            framesSinceMiss = 0
        }
    }

    /// Seconds before the vblank the latch begins (at most half the interval).
    public func latchLead(interval: Double) -> Double {
        min(FrameDeadlines.secondLongest(latchMicroseconds) + margin, interval / 2)
    }

    /// Seconds before the vblank the picture begins (at most the whole interval).
    public func pictureLead(interval: Double) -> Double {
        let longest = FrameDeadlines.longest(pictureMicroseconds)
        return min(latchLead(interval: interval) + max(2 * longest, longest + FrameDeadlines.pictureSlack), interval)
    }

    /// The first vblank after `now`, vblanks coming every `interval` from `lastFlip`.
    public static func vblank(after now: Double, lastFlip: Double, interval: Double) -> Double {
        lastFlip + max(((now - lastFlip) / interval).rounded(.up), 1) * interval
    }

    // (Index loops: an array's iterator allocates in an unoptimised build, and tests count
    // the loop's allocations there too.)
    private static func longest(_ microseconds: [UInt32]) -> Double {
        var longest: UInt32 = 0
        for index in 0..<microseconds.count { longest = max(longest, microseconds[index]) }
        return Double(longest) / 1e6
    }

    /// The longest but one: a lone spike is not planned for.
    private static func secondLongest(_ microseconds: [UInt32]) -> Double {
        var longest: UInt32 = 0, second: UInt32 = 0
        for index in 0..<microseconds.count {
            let value = microseconds[index]
            if value > longest {
                second = longest
                longest = value
            } else if value > second {
                second = value
            }
        }
        return Double(second) / 1e6
    }

    private static func microseconds(_ seconds: Double) -> UInt32 {
        UInt32(clamping: Int((max(seconds, 0) * 1e6).rounded()))
    }
}
