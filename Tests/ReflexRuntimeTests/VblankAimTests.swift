@testable import ReflexRuntime
import Testing

/// When the loop draws and latches, on a 60 Hz display whose vblanks are at multiples of
/// `interval` from 10 s: times given, nothing waited for.
@Suite("Vblank aim")
struct VblankAimTests {
    static let interval = 1.0 / 60

    @Test func withoutAFlipOrAVblankCounterThePictureIsDrawnAtOnce() {
        var aim = VblankAim()
        #expect(aim.picture(at: 10, interval: Self.interval) == (nil, nil) as (Double?, Double?), "no phase yet")
        _ = aim.flipCompleted(at: 10, interval: nil)
        let noCounter = aim.picture(at: 10.001, interval: nil)
        #expect(noCounter.vblank == nil && noCounter.startAt == nil)
        #expect(aim.latch(for: nil, interval: nil) == nil)
    }

    @Test func thePictureStartsAsLateAsItSafelyCanForTheComingVblank() throws {
        var aim = VblankAim()
        _ = aim.flipCompleted(at: 10, interval: Self.interval)
        let early = aim.picture(at: 10.001, interval: Self.interval)
        #expect(early.vblank.map { abs($0 - (10 + Self.interval)) < 1e-9 } == true)
        #expect(early.startAt.map { $0 > 10.001 && $0 < 10 + Self.interval } == true, "\(early)")
        let startAt = try #require(early.startAt, "\(early)")
        let due = aim.picture(at: startAt, interval: Self.interval)
        #expect(due.startAt == nil && due.vblank == early.vblank, "at its start: draw now, for that vblank")
        let dueVblank = try #require(due.vblank, "at its start: draw now, for that vblank")
        let latch = aim.latch(for: due.vblank, interval: Self.interval)
        #expect(latch.map { $0 > startAt && $0 < dueVblank } == true, "the latch between the picture and the vblank")
    }

    @Test func aFlipAfterTheVblankItsFrameWasMadeForIsLate() {
        var aim = VblankAim()
        _ = aim.flipCompleted(at: 10, interval: Self.interval)
        let vblank = 10 + Self.interval
        aim.queued(for: vblank, latchAt: vblank - 0.001, started: vblank - 0.001, pictureSeconds: 0.002, latchSeconds: 0.0002)
        let onTime = aim.flipCompleted(at: vblank + 0.0001, interval: Self.interval)
        #expect(!onTime, "shown at its vblank")
        aim.queued(for: vblank + Self.interval, latchAt: nil, started: vblank + 0.01, pictureSeconds: 0.002, latchSeconds: 0.0002)
        let late = aim.flipCompleted(at: vblank + 2 * Self.interval, interval: Self.interval)
        #expect(late, "a vblank late")
        #expect(aim.lastFlipAt == vblank + 2 * Self.interval)
    }

    @Test func aLateFrameLatchedOnTimeMovesTheLatchEarlier() throws {
        var aim = VblankAim()
        _ = aim.flipCompleted(at: 10, interval: Self.interval)
        let vblank = 10 + Self.interval
        let before = try #require(aim.latch(for: vblank, interval: Self.interval))
        aim.queued(for: vblank, latchAt: before, started: before, pictureSeconds: 0.002, latchSeconds: 0.0002)
        let late = aim.flipCompleted(at: vblank + Self.interval, interval: Self.interval)
        #expect(late)
        let after = try #require(aim.latch(for: vblank, interval: Self.interval))
        #expect(after < before)
    }

    /// A latch begun on time that itself ran past the vblank (the host took the CPU in the
    /// middle of it) missed because of its run, not its lead: the lead stays.
    @Test func aLatchThatRanPastItsVblankLeavesTheLeadAlone() throws {
        var aim = VblankAim()
        _ = aim.flipCompleted(at: 10, interval: Self.interval)
        let vblank = 10 + Self.interval
        let before = try #require(aim.latch(for: vblank, interval: Self.interval))
        aim.queued(for: vblank, latchAt: before, started: before, pictureSeconds: 0.002, latchSeconds: vblank - before + 0.003)
        let late = aim.flipCompleted(at: vblank + Self.interval, interval: Self.interval)
        #expect(late, "shown a vblank late")
        let after = try #require(aim.latch(for: vblank + Self.interval, interval: Self.interval))
        #expect(abs((vblank + Self.interval - after) - (vblank - before)) < 1e-9, "the same lead")
    }
}
