/// An exposure time as an exact fraction of a second, so `1/3` stays `1/3` and labels
/// print exactly as a photographer expects: `1/250`, `0.3"`, `1"`.
public struct ShutterSpeed: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        precondition(numerator > 0 && denominator > 0, "an exposure time is positive")
        self.numerator = numerator
        self.denominator = denominator
    }

    public var seconds: Double { Double(numerator) / Double(denominator) }
    /// For V4L2: exposure controls count in µs (EXPOSURE_ABSOLUTE in 100 µs units).
    public var microseconds: Int { (numerator * 1_000_000 + denominator / 2) / denominator }

    /// Shorter is "less" — Comparable orders by duration.
    public static func < (a: ShutterSpeed, b: ShutterSpeed) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    /// `1/250` for fractions of a second, `0.3"` for tenths, `1"` for whole seconds.
    public var description: String {
        if numerator == 1 && denominator > 1 { return "1/\(denominator)" }
        if denominator == 1 { return "\(numerator)\"" }
        if denominator == 10 && numerator < 10 { return "0.\(numerator)\"" }
        return "\(numerator)/\(denominator)\""
    }

    /// Parses what `description` prints; the trailing `"` of seconds is optional.
    public init?(parsing text: String) {
        var body = Substring(text)
        if body.hasSuffix("\"") { body = body.dropLast() }
        if body.hasPrefix("1/"), let d = Int(body.dropFirst(2)), d > 0 {
            self.init(1, d)
        } else if let whole = Int(body), whole > 0 {
            self.init(whole, 1)
        } else if body.hasPrefix("0."), body.count == 3, let tenth = Int(body.dropFirst(2)), tenth > 0 {
            self.init(tenth, 10)
        } else {
            return nil
        }
    }

    /// Every stop the shutter dial knows, exactly as docs/camera.md (Auto and Pro) lists them,
    /// fastest first: 1/8000 … 1/4, then 0.3" … 1".
    public static let stopTable: [ShutterSpeed] = [
        8000, 6400, 5000, 4000, 3200, 2500, 2000, 1600, 1250, 1000, 800, 640, 500, 400, 320,
        250, 200, 160, 125, 100, 80, 60, 50, 40, 30, 25, 20, 15, 13, 10, 8, 6, 5, 4,
    ].map { ShutterSpeed(1, $0) } + [3, 4, 5, 6, 8].map { ShutterSpeed($0, 10) } + [ShutterSpeed(1, 1)]
}
