/// The lenses a photographer sees as one camera (docs/camera.md, The controls): those of the board's
/// that are present, ordered from the widest. The zoom factor picks the lens: the longest
/// whose switch-over the zoom has reached; the rest of the zoom is the ISP's crop of that
/// lens's picture, so the field of view is continuous across a change of lens.
public struct LensSet: Sendable, Equatable {
    public let lenses: [LensDescription]
    /// How far the ISP may crop beyond the longest lens (the zoom's reach with one lens).
    public static let digitalReach = 8.0

    public init(_ lenses: [LensDescription]) {
        self.lenses = lenses.sorted { $0.magnification < $1.magnification }
    }

    /// More than one lens: the buttons are shown. (One lens alone needs no switcher.)
    public var offersChoice: Bool { lenses.count > 1 }

    /// The lens for zoom `factor`: the longest whose switch-over it has reached, else the widest.
    public func lens(forZoom factor: Double) -> Int {
        guard !lenses.isEmpty else { return 0 }
        // (A hair of tolerance: a glide that ends on 3.0 may land on 2.9999999.)
        return lenses.lastIndex { factor + 1e-6 >= $0.switchOver } ?? 0
    }

    /// The zoom's range: from the widest lens's field of view to the longest's cropped by
    /// the ISP's reach (never less than the one-lens camera's).
    public var zoomRange: ClosedRange<Double> {
        guard let widest = lenses.first, let longest = lenses.last else { return 1...LensSet.digitalReach }
        return min(widest.magnification, 1)...max(LensSet.digitalReach, longest.magnification * 2)
    }

    /// The ISP's crop when lens `index` gives the picture at zoom `factor` (1 when none).
    public func digitalZoom(_ factor: Double, lens index: Int) -> Double {
        guard lenses.indices.contains(index) else { return max(factor, 1) }
        return max(factor / lenses[index].magnification, 1)
    }

    /// The lens that the zoom is close to changing to (within `margin` of its switch-over,
    /// either way): where the board allows two streams it is started beforehand, so the
    /// change shows no gap.
    public func neighbourSoon(forZoom factor: Double, margin: Double = 1.25) -> Int? {
        let current = lens(forZoom: factor)
        if current + 1 < lenses.count, factor * margin >= lenses[current + 1].switchOver { return current + 1 }
        if current > 0, factor <= lenses[current].switchOver * margin { return current - 1 }
        return nil
    }
}
