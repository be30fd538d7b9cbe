import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
import Synchronization
import Testing
@testable import ReflexRuntime

/// Tap to focus on the simulated sensor, whose scene stands at two distances (its left part
/// near, in focus at 0.3; the rest far, at 0.8) and whose focus motor takes two frames to
/// move: a tap on the near part focuses near, a tap on the far part far; a double tap hands
/// the lens back to the camera's own autofocus.
@Suite("Tap to focus", .serialized)
struct TapFocusTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var write: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// The position of the `count`-th "sharpest at" line, the sensor stepped until it comes
    /// (a sweep takes a few dozen frames; nil after 300).
    static func sharpest(_ lines: Lines, count: Int, stepping stream: SteppedPipeline) -> Double? {
        func found() -> [Double] {
            lines.all.compactMap { $0.firstMatch(of: /autofocus sharpest at ([\d.]+)/).map { Double($0.1)! } }
        }
        guard stream.step(until: { found().count >= count }, frames: 300) else { return nil }
        return found()[count - 1]
    }

    @Test func aTapFocusesOnWhatIsThereNearOrFar() throws {
        let lines = Lines()
        var settings = CameraSettings()
        let stream = SteppedPipeline(settings: settings, log: lines.write)
        stream.pipeline.start()
        defer { stream.pipeline.stop() }
        #expect(stream.step(frames: 30), "a second of frames first")
        // Spots the scene's ball never crosses, over a band of its fine stripes.
        settings.meteringPoint = MeteringPoint(x: 0.15, y: 0.28)
        stream.pipeline.mailbox.send(settings)
        let near = try #require(Self.sharpest(lines, count: 1, stepping: stream), "\(lines.all.suffix(8))")
        #expect(abs(near - SimulatedScene.nearSubject) <= 0.04, "the near subject: \(near)")
        settings.meteringPoint = MeteringPoint(x: 0.9, y: 0.28)
        stream.pipeline.mailbox.send(settings)
        let far = try #require(Self.sharpest(lines, count: 2, stepping: stream), "\(lines.all.suffix(8))")
        #expect(abs(far - SimulatedScene.farSubject) <= 0.04, "the far subject: \(far)")
        #expect(lines.all.contains { $0.contains("autofocus sweeping the lens for the spot at (0.15, 0.28)") })
        // The whole frame again: the camera's own autofocus takes the lens back.
        settings.meteringPoint = nil
        stream.pipeline.mailbox.send(settings)
        #expect(stream.step(until: { lines.all.contains { $0.contains("autofocus on") } }, frames: 60),
                "\(lines.all.suffix(5))")
    }
}

@Suite("Contrast autofocus")
struct ContrastAutofocusTests {
    /// A lens's contrast curve: peaked at `peak`, a floor of `floor`.
    static func contrast(at position: Double, peak: Double, floor: Double = 0.05) -> Double {
        floor + 1 / (1 + 25 * (position - peak) * (position - peak))
    }

    static func run(from start: Double, peak: Double) -> (ContrastAutofocus.Outcome?, [Double]) {
        var sweep = ContrastAutofocus(from: start)
        var visited: [Double] = []
        while !sweep.isDone {
            visited.append(sweep.target)
            sweep.measured(contrast(at: sweep.target, peak: peak))
        }
        return (sweep.outcome, visited)
    }

    @Test(arguments: [0.0, 0.13, 0.37, 0.5, 0.81, 1.0])
    func itFindsThePeakBetweenItsPositions(peak: Double) {
        let (outcome, visited) = Self.run(from: 1, peak: peak)
        #expect(visited.count == ContrastAutofocus.steps)
        guard case .focused(let position) = outcome else { Issue.record("\(String(describing: outcome))"); return }
        #expect(abs(position - peak) <= 0.025, "peak \(peak): \(position)")
    }

    @Test func itSweepsFromTheEndNearerTheLens() {
        #expect(Self.run(from: 0.9, peak: 0.5).1.first == 1)
        #expect(Self.run(from: 0.2, peak: 0.5).1.first == 0)
    }

    @Test func aFlatPictureLeavesTheLensWhereItWas() {
        var sweep = ContrastAutofocus(from: 0.64)
        while !sweep.isDone { sweep.measured(0.2) }
        #expect(sweep.outcome == .noContrast(0.64))
        #expect(sweep.target == 0.64)
        var dark = ContrastAutofocus(from: 0.3)
        while !dark.isDone { dark.measured(0) }
        #expect(dark.outcome == .noContrast(0.3))
    }
}
