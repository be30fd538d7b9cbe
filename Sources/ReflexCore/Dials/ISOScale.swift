/// The ISO dial for one sensor: the seed's stops that the sensor's ISO range reaches.
public struct ISOScale: Sendable, Equatable {
    public let list: StopList<ISOSpeed>

    /// `sensorRange` is the ISO the sensor reaches (from its gain range and the board's
    /// gain→ISO calibration).
    public init(sensorRange: ClosedRange<Int>) {
        list = StopList(
            table: ISOSpeed.stopTable,
            isAvailable: { sensorRange.contains($0.value) },
            closeness: { stop in
                let reachable = min(max(stop.value, sensorRange.lowerBound), sensorRange.upperBound)
                return stopRatio(Double(stop.value), Double(reachable))
            })
    }

    public var stops: [ISOSpeed] { list.stops }
    public var range: ClosedRange<ISOSpeed> { list.first...list.last }

    /// The stop nearest to any ISO (e.g. what Auto exposure is using right now).
    public func nearest(to iso: ISOSpeed) -> ISOSpeed {
        list.nearest { stopRatio(Double($0.value), Double(iso.value)) }
    }

    /// One dial step: up = more sensitive.
    public func step(from iso: ISOSpeed, _ direction: DialDirection) -> StepResult<ISOSpeed> {
        list.step(from: iso, direction) { stopRatio(Double($0.value), Double(iso.value)) }
    }
}
