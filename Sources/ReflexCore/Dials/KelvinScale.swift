/// The Kelvin dial: 2000 K to 10000 K in 100 K steps, the granularity camera bodies use and
/// the resolution photographers write down. Up = higher Kelvin.
public struct KelvinScale: Sendable, Equatable {
    public static let minimum = 2000
    public static let maximum = 10000
    public static let step = 100
    public static let stopTable: [Int] = Array(stride(from: minimum, through: maximum, by: step))

    public let list: StopList<Int>

    public init() {
        list = StopList(table: KelvinScale.stopTable, isAvailable: { _ in true }, closeness: { _ in 0 })
    }

    public func nearest(to kelvin: Int) -> Int {
        list.nearest { Double(abs($0 - kelvin)) }
    }

    public func step(from kelvin: Int, _ direction: DialDirection) -> StepResult<Int> {
        list.step(from: kelvin, direction) { Double(abs($0 - kelvin)) }
    }
}
