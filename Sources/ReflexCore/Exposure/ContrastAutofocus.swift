/// Contrast-detect autofocus, one shot, where Reflex drives the lens itself (a camera with a
/// focus motor, V4L2's FOCUS_ABSOLUTE): the lens sweeps its range in `steps` positions, from
/// the end nearer where it stands; the picture's contrast in the box is measured at each; the
/// lens then goes to the peak, found between the sharpest position and its two neighbours by
/// the parabola through the three (how mirrorless and phone cameras refine a contrast sweep).
/// A box with no contrast to find (flat, or too dark) leaves the lens where it started.
///
/// Pure logic: the caller moves the lens to `target`, waits until it is there (the camera's
/// control delay), and gives the contrast measured then.
public struct ContrastAutofocus: Sendable, Equatable {
    public static let steps = 11
    /// The sharpest position must stand this much above the least sharp for a peak to count.
    public static let leastPeakRatio = 1.08

    public enum Outcome: Sendable, Equatable {
        /// Focused at this lens position (0 closest … 1 infinity).
        case focused(Double)
        /// Nothing in the box to focus on: the lens went back where it started.
        case noContrast(Double)

        public var position: Double {
            switch self {
            case .focused(let position), .noContrast(let position): position
            }
        }
    }

    public let start: Double
    private var scores: [Double] = []
    private let ascending: Bool
    public private(set) var outcome: Outcome?

    /// A sweep for a lens now at `start`.
    public init(from start: Double) {
        self.start = min(max(start.isFinite ? start : 1, 0), 1)
        ascending = self.start < 0.5
        scores.reserveCapacity(ContrastAutofocus.steps)
    }

    /// The sweep's `index`-th position.
    private func position(_ index: Int) -> Double {
        let fraction = Double(index) / Double(ContrastAutofocus.steps - 1)
        return ascending ? fraction : 1 - fraction
    }

    /// Where the lens should be now: the next position to measure, or the outcome's.
    public var target: Double { outcome?.position ?? position(scores.count) }

    public var isDone: Bool { outcome != nil }

    /// The contrast measured with the lens at `target`. (No allocation: room for the sweep
    /// was made at the start.)
    public mutating func measured(_ contrast: Double) {
        guard outcome == nil else { return }
        scores.append(contrast.isFinite ? max(contrast, 0) : 0)
        guard scores.count == ContrastAutofocus.steps else { return }
        outcome = peak()
    }

    private func peak() -> Outcome {
        var best = 0, least = Double.infinity
        for (index, score) in scores.enumerated() {
            if score > scores[best] { best = index }
            least = min(least, score)
        }
        guard scores[best] > 0, scores[best] >= least * ContrastAutofocus.leastPeakRatio else { return .noContrast(start) }
        guard best > 0, best < scores.count - 1 else { return .focused(position(best)) }
        // The vertex of the parabola through the best and its neighbours, within them.
        let (a, b, c) = (scores[best - 1], scores[best], scores[best + 1])
        let curvature = a - 2 * b + c
        let offset = curvature < 0 ? min(max(0.5 * (a - c) / curvature, -0.5), 0.5) : 0
        let step = 1 / Double(ContrastAutofocus.steps - 1)
        return .focused(min(max(position(best) + (ascending ? offset : -offset) * step, 0), 1))
    }
}
