/// The shutter dial for one sensor: the seed's stops inside the sensor's exposure range
/// (which the frame time also bounds). Up = faster, as the seed's swipe-up says.
public struct ShutterScale: Sendable, Equatable {
    /// Stops slowest first, so the dial's "up" is the next index.
    public let list: StopList<ShutterSpeed>

    /// `exposureRange` in seconds, as the sensor's exposure control allows it.
    public init(exposureRange: ClosedRange<Double>) {
        list = StopList(
            table: ShutterSpeed.stopTable.reversed(),
            isAvailable: { exposureRange.contains($0.seconds) },
            closeness: { stop in
                let reachable = min(max(stop.seconds, exposureRange.lowerBound), exposureRange.upperBound)
                return stopRatio(stop.seconds, reachable)
            })
    }

    /// Stops fastest first, as the seed lists them.
    public var stopsFastestFirst: [ShutterSpeed] { list.stops.reversed() }
    public var fastest: ShutterSpeed { list.last }
    public var slowest: ShutterSpeed { list.first }

    public func nearest(toSeconds seconds: Double) -> ShutterSpeed {
        list.nearest { stopRatio($0.seconds, seconds) }
    }

    /// One dial step: up = faster (shorter exposure).
    public func step(from speed: ShutterSpeed, _ direction: DialDirection) -> StepResult<ShutterSpeed> {
        list.step(from: speed, direction) { stopRatio($0.seconds, speed.seconds) }
    }
}
