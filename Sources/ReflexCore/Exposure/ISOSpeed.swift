/// Sensitivity in ISO (arithmetic, as printed on the HUD: "ISO 400").
public struct ISOSpeed: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: Int

    public init(_ value: Int) { self.value = value }

    public static func < (a: ISOSpeed, b: ISOSpeed) -> Bool { a.value < b.value }

    /// The HUD form: "ISO 400".
    public var description: String { "ISO \(value)" }

    /// Every stop the ISO dial knows, exactly as docs/camera.md (Auto and Pro) lists them: 1/3 stops
    /// from 100 to 3200, then whole stops to 12800.
    public static let stopTable: [ISOSpeed] = [
        100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500,
        3200, 6400, 12800,
    ].map(ISOSpeed.init)
}
