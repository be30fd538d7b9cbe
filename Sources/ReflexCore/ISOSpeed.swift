/// Sensitivity in ISO (arithmetic, as printed on the HUD: "ISO 400").
public struct ISOSpeed: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: Int

    public init(_ value: Int) { self.value = value }

    public static func < (a: ISOSpeed, b: ISOSpeed) -> Bool { a.value < b.value }

    /// The HUD form: "ISO 400".
    public var description: String { "ISO \(value)" }

    /// Every stop the ISO dial knows, exactly as seed 000 story 2.2 lists them: 1/3 stops
    /// from 100 to 3200, then whole stops to 12800.
    public static let stopTable: [ISOSpeed] = [
        100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500,
        3200, 6400, 12800,
    ].map(ISOSpeed.init)
}

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
