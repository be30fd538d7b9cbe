import CAllocationCounter
import ReflexCore

/// One measured case: median and 99th percentile time per frame, throughput, allocations.
struct Row: CustomStringConvertible {
    let name: String
    let median: Double
    let p99: Double
    /// The fastest iteration: the code's own speed, least touched by a busy host.
    let best: Double
    let pixels: Double
    let allocationsPerFrame: Double

    static let header = "  case                                          ms/frame   p99 ms  best ms   Mpixel/s   allocs/frame"

    static func measure(_ name: String, pixels: Double, iterations: Int, _ body: () -> Void) -> Row {
        for _ in 0..<max(iterations / 10, 3) { body() }  // warm caches and tables
        var times = [Double](repeating: 0, count: iterations)
        let clock = ContinuousClock()
        let allocationsBefore = reflex_thread_allocations()
        for i in 0..<iterations {
            let start = clock.now
            body()
            let elapsed = start.duration(to: clock.now)
            times[i] = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
        }
        let allocations = reflex_thread_allocations() - allocationsBefore
        times.sort()
        return Row(name: name, median: times[iterations / 2], p99: times[min(iterations - 1, iterations * 99 / 100)],
                   best: times[0], pixels: pixels, allocationsPerFrame: Double(allocations) / Double(iterations))
    }

    /// How many times longer `reference` takes than `candidate`, timed back to back in blocks
    /// of reference, candidate, candidate, reference (so neither side always runs second,
    /// with the input warm in the cache), each block's ratio being (r₁ + r₂) / (c₁ + c₂); the
    /// median of the blocks' ratios. A host that slows for seconds at a time, as a virtual
    /// machine's does when its neighbours are busy, slows both sides of a block alike, where
    /// it would skew two cases timed one after the other.
    static func pairedRatio(iterations: Int, _ reference: () -> Void, _ candidate: () -> Void) -> Double {
        for _ in 0..<max(iterations / 10, 3) { reference(); candidate() }
        let blocks = max(iterations / 2, 1)
        var ratios = [Double](repeating: 0, count: blocks)
        let clock = ContinuousClock()
        func seconds(_ body: () -> Void) -> Double {
            let start = clock.now
            body()
            let elapsed = start.duration(to: clock.now)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        for i in 0..<blocks {
            let r1 = seconds(reference), c1 = seconds(candidate), c2 = seconds(candidate), r2 = seconds(reference)
            ratios[i] = (r1 + r2) / max(c1 + c2, 1e-9)
        }
        ratios.sort()
        return blocks % 2 == 1 ? ratios[blocks / 2] : (ratios[blocks / 2 - 1] + ratios[blocks / 2]) / 2
    }

    var description: String {
        "  " + Formatting.padRight(name, 44) + Formatting.fixed(median, 3, width: 10) + Formatting.fixed(p99, 3, width: 9)
            + Formatting.fixed(best, 3, width: 9)
            + Formatting.fixed(pixels / median / 1e3, 1, width: 11) + Formatting.fixed(allocationsPerFrame, 2, width: 15)
    }
}
