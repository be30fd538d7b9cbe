import ReflexCore
import Testing
@testable import ReflexISP

/// The bracket as the sensor thread shoots it, as pure logic: what is sent after each frame,
/// which frames are the bracket's, and each checked against the exposure it reports.
@Suite struct BracketRunTests {
    static let base = ExposureSetting(exposure: 0.01, analogGain: 2, digitalGain: 1.5)

    static func run(frames: Int = 3, step: Int = 3, delay: Int = 2, times: ClosedRange<Double> = 0.0001...(1.0 / 30),
                    holdGain: Bool = false) -> BracketRun {
        BracketRun(plan: BracketPlan(frames: frames, stepThirds: step)!, base: base, times: times, gains: 1...16,
                   holdGain: holdGain, delayFrames: delay)
    }

    @Test func oneExposureAFrameThenTheBaseAgain() {
        var run = BracketRunTests.run()
        var sent: [ExposureSetting] = []
        for frame in UInt32(10)..<20 {
            guard let next = run.nextSetting else { break }
            sent.append(next)
            run.sent(afterFrame: frame)
        }
        #expect(sent.count == 4 && run.restored)
        #expect(zip(sent.map(\.product), [0.03, 0.015, 0.06, 0.03]).allSatisfy { abs($0 / $1 - 1) < 1e-9 },
                "base, a stop under, a stop over, base: \(sent)")
        #expect(sent.allSatisfy { $0.digitalGain == 1.5 }, "the ISP's digital gain is kept")
        // Sent after frames 10, 11, 12 with a delay of two: frames 13, 14, 15 carry them.
        #expect(run.index(ofFrame: 12) == nil && run.index(ofFrame: 13) == 0 && run.index(ofFrame: 15) == 2)
        #expect(run.index(ofFrame: 16) == nil)
    }

    @Test func eachFrameIsCheckedAgainstWhatTheSensorReports() {
        var run = BracketRunTests.run(delay: 0)
        for frame in UInt32(0)..<4 { run.sent(afterFrame: frame) }
        #expect(run.frameArrived(1, exposure: run.setting(at: 0)) == 0)
        // The sensor reports the base again for the under frame: not as asked.
        #expect(run.frameArrived(2, exposure: BracketRunTests.base) == 1)
        #expect(run.frameArrived(3, exposure: run.setting(at: 2)) == 2)
        #expect(run.state(at: 0) == .arrived(sequence: 1, asAsked: true))
        #expect(run.state(at: 1) == .arrived(sequence: 2, asAsked: false))
        for index in 0..<3 { run.taken(at: index) }
        #expect(run.isOver)
        #expect(run.taken == (count: 3, notAsAsked: 1))
    }

    /// The pipeline's order on frames `0..<count` (SensorPipeline.handle): after each frame
    /// that came the next value is sent, then the frame is checked; a frame `dropped` says so
    /// never came (nor was anything sent after it). The bracket's frames as they came:
    /// (sequence, index).
    static func shoot(_ run: inout BracketRun, frames count: UInt32, dropped: (UInt32, BracketRun) -> Bool) -> [(UInt32, Int)] {
        var arrivals: [(UInt32, Int)] = []
        for frame in 0..<count where !dropped(frame, run) {
            if run.nextSetting != nil { run.sent(afterFrame: frame) }
            let exposure = run.index(ofFrame: frame).map { run.setting(at: $0) } ?? base
            if let index = run.frameArrived(frame, exposure: exposure) {
                arrivals.append((frame, index))
                run.taken(at: index)
            }
        }
        return arrivals
    }

    /// A frame the stream dropped is asked for again, and its new frame is the bracket's.
    @Test func aFrameThatNeverCameIsAskedForAgain() {
        var run = BracketRunTests.run(delay: 1)
        // Sent after frames 0, 1, 2: frames 2, 3, 4 carry them; 3 is dropped, which frame 4
        // tells after the base went. The under exposure goes again after frame 5, so frame 7
        // carries it, the base after it.
        let arrivals = BracketRunTests.shoot(&run, frames: 12) { frame, _ in frame == 3 }
        #expect(arrivals.map(\.0) == [2, 4, 7] && arrivals.map(\.1) == [0, 2, 1], "\(arrivals)")
        #expect(run.isOver && run.taken == (count: 3, notAsAsked: 0) && run.framesAskedAgain == 1)
        #expect(run.index(ofFrame: 8) == nil, "the base again after it")
    }

    /// Dropped each time it is sent, a frame is lost after `sendsAtMost` sends; the others are
    /// kept and the bracket ends.
    @Test func aFrameDroppedEachTimeIsLostInTheEnd() {
        var run = BracketRunTests.run(delay: 2)
        let arrivals = BracketRunTests.shoot(&run, frames: 40) { frame, run in run.index(ofFrame: frame) == 1 }
        #expect(arrivals.map(\.1) == [0, 2], "\(arrivals)")
        #expect(run.state(at: 1) == .lost && run.isOver && run.taken == (count: 2, notAsAsked: 0))
        #expect(run.framesAskedAgain == BracketRun.sendsAtMost - 1)
    }

    @Test func theSensorsLimitsAreNotAsAsked() {
        // Pro at a frame's whole time, its gain held: the stop over cannot be given.
        var run = BracketRunTests.run(delay: 0, times: 0.0001...0.01, holdGain: true)
        for frame in UInt32(0)..<4 { run.sent(afterFrame: frame) }
        for index in 0..<3 {
            run.frameArrived(UInt32(index + 1), exposure: run.setting(at: index))
            run.taken(at: index)
        }
        #expect(run.setting(at: 2).exposure == 0.01 && run.setting(at: 2).analogGain == 2)
        #expect(run.taken == (count: 3, notAsAsked: 1))
    }

    /// A sensor without an exposure time control (the QEMU board's vivid) brackets by gain,
    /// in Pro too.
    @Test func aFixedExposureTimeBracketsByGain() {
        let run = BracketRunTests.run(times: 0.01...0.01, holdGain: true)
        #expect((0..<3).map { run.setting(at: $0).analogGain } == [2, 1, 4])
        #expect((0..<3).allSatisfy { run.setting(at: $0).exposure == 0.01 })
    }

    @Test func theViewfinderIsKeptAtTheBasesBrightness() {
        var run = BracketRunTests.run(delay: 0)
        for frame in UInt32(0)..<4 { run.sent(afterFrame: frame) }
        #expect(abs(run.previewCompensation(forFrame: 2, exposure: run.setting(at: 1)) - 2) < 1e-9)
        #expect(abs(run.previewCompensation(forFrame: 3, exposure: run.setting(at: 2)) - 0.5) < 1e-9)
        #expect(run.previewCompensation(forFrame: 9, exposure: run.setting(at: 2)) == 1, "not the bracket's")
    }

    @Test func aStreamEndingUnderItLosesTheRest() {
        var run = BracketRunTests.run()
        run.sent(afterFrame: 0)
        run.abandon()
        #expect(run.nextSetting == nil && run.isOver && run.taken.count == 0)
    }
}
