/// An ordered list of dial stops, already clamped to what the hardware can do.
/// Stops are stored in the dial's "up" order, so stepping is an index offset.
public struct StopList<Stop: Sendable & Equatable>: Sendable, Equatable {
    /// The stops the dial offers, never empty.
    public let stops: [Stop]

    /// Keeps the stops of `table` that `isAvailable` accepts. When none is, the one
    /// `closeness` ranks best stands alone, so the dial always has a value to show.
    init(table: [Stop], isAvailable: (Stop) -> Bool, closeness: (Stop) -> Double) {
        precondition(!table.isEmpty, "a stop table is never empty")
        let available = table.filter(isAvailable)
        if available.isEmpty {
            stops = [table.min { closeness($0) < closeness($1) }!]
        } else {
            stops = available
        }
    }

    public var first: Stop { stops[0] }
    public var last: Stop { stops[stops.count - 1] }

    /// The stop nearest to `value` under `distance` (ties go to the lower index).
    func nearest(by distance: (Stop) -> Double) -> Stop {
        var best = stops[0]
        var bestDistance = distance(best)
        for stop in stops.dropFirst() {
            let d = distance(stop)
            if d < bestDistance { best = stop; bestDistance = d }
        }
        return best
    }

    /// One step from `current` (snapped to the list by `distance` if it is not a stop).
    /// Reaching a stop ticks; trying to pass the first or last stop bumps and holds.
    func step(from current: Stop, _ direction: DialDirection,
              distance: (Stop) -> Double) -> StepResult<Stop> {
        let snapped = stops.firstIndex(of: current) ?? stops.firstIndex(of: nearest(by: distance))!
        if stops[snapped] != current {
            // An off-grid value (e.g. a metered Auto value) first lands on the nearest stop.
            return StepResult(value: stops[snapped], feedback: .tick)
        }
        let next = snapped + direction.offset
        guard stops.indices.contains(next) else {
            return StepResult(value: current, feedback: .bump)
        }
        return StepResult(value: stops[next], feedback: .tick)
    }
}
