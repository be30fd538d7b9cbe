import ReflexCore
import ReflexHardware

extension FrameLoop {
    /// What the loop reports to other threads: its frame times and the display's counters,
    /// copied by the loop between two frames when asked.
    public struct Statistics {
        public var ring = FrameTimeRing()
        public var flips = 0
        public var missedVblanks: Int?
        public var vblanksSpanned: Int?
        public var refusedFlips = 0
        public var stalledFlips = 0
        /// Frames that went out before the painter had painted the newest change (after
        /// `paintPatience`): the change showed a frame late.
        public var lateInterfaceFrames = 0
        /// Frames shown after the vblank they were made for (by the loop's clock).
        public var lateFrames = 0
        /// How the loop's thread is scheduled: "SCHED_FIFO 40", or why it is not.
        public var scheduling = "not started"
        /// Seconds from the process's start to the first page flip, taken when the flip came.
        public var firstFlipSeconds: Double?
        /// From an input event's kernel time to the flip that showed its effect.
        public var inputLatency = InputLatencyRing()
        /// How long before its vblank the newest frame was latched (nil: no vblank to aim at),
        /// and how long its latch took.
        public var latchLead: Double?
        public var latchSeconds = 0.0

        public func describe(display: String) -> String {
            let flipText = "\(flips) flips" + (vblanksSpanned.map { " over \($0) vblanks" } ?? " (no vblank counter)")
            return "display: \(ring.summary()), " + flipText
                + (missedVblanks.map { ", \($0) vblanks missed by the display" } ?? "")
                + ", \(refusedFlips) refused, \(stalledFlips) stalled, \(lateInterfaceFrames) with the interface a frame late"
                + ", \(lateFrames) after the vblank they were made for"
                + ", on \(display), \(scheduling)"
                + (firstFlipSeconds.map { ", first frame on the panel \(Int(($0 * 1000).rounded())) ms after start" } ?? "")
                + (inputLatency.recorded > 0 ? ", \(inputLatency.summary())" : "")
        }

        /// A frame went out: `picture` drawn, then latched from `latchStarted` to `finished`
        /// (`latchRunningSeconds` of it on the CPU, `latchAllocations` made), with
        /// `missedVblanks` more missed by the display since the frame before.
        mutating func frameQueued(_ picture: PreparedPicture, latchStarted: Double, finished: Double,
                                  latchRunningSeconds: Double, missedVblanks: Int, latchAllocations: Int) {
            latchLead = picture.vblank.map { $0 - latchStarted }
            latchSeconds = finished - latchStarted
            ring.record(microseconds: Int((picture.seconds + latchSeconds) * 1e6),
                        runningMicroseconds: Int((picture.runningSeconds + latchRunningSeconds) * 1e6),
                        at: finished, missed: missedVblanks, allocations: picture.allocations + latchAllocations)
        }

        /// The display's own counts, as they are now (read when the statistics are asked for).
        mutating func countFlips(of display: DisplayOutput) {
            (flips, missedVblanks, vblanksSpanned) = (display.flips, display.missedVblanks, display.vblanksSpanned)
        }

        /// Becomes a copy of `other` without allocating (its rings copied into this one's
        /// storage): the loop makes it between two frames. The scheduling text is set once,
        /// before the loop, so it is a shared buffer, not a copy.
        mutating func copy(from other: Statistics) {
            ring.copy(from: other.ring)
            inputLatency.copy(from: other.inputLatency)
            (flips, missedVblanks, vblanksSpanned) = (other.flips, other.missedVblanks, other.vblanksSpanned)
            (refusedFlips, stalledFlips) = (other.refusedFlips, other.stalledFlips)
            (lateInterfaceFrames, lateFrames) = (other.lateInterfaceFrames, other.lateFrames)
            (latchLead, latchSeconds, scheduling) = (other.latchLead, other.latchSeconds, other.scheduling)
        }
    }
}
