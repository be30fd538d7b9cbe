/// Exposure compensation for Auto exposure: −3 … +3 EV in thirds of a stop, written the way
/// camera dials print it: "0", "+1/3", "−2/3", "+1", "+1 1/3".
public struct ExposureCompensation: Sendable, Hashable, CustomStringConvertible {
    public static let range = -9...9
    public let thirds: Int

    public init(thirds: Int) {
        self.thirds = min(max(thirds, ExposureCompensation.range.lowerBound), ExposureCompensation.range.upperBound)
    }

    public static let zero = ExposureCompensation(thirds: 0)

    public var stops: Double { Double(thirds) / 3 }

    public var description: String {
        let whole = abs(thirds) / 3, rest = abs(thirds) % 3
        let sign = thirds > 0 ? "+" : thirds < 0 ? "−" : ""
        switch (whole, rest) {
        case (0, 0): return "0"
        case (_, 0): return "\(sign)\(whole)"
        case (0, _): return "\(sign)\(rest)/3"
        default: return "\(sign)\(whole) \(rest)/3"
        }
    }

    /// The settings-file form: the same with an ASCII "-".
    public var settingValue: String { String(description.map { $0 == "\u{2212}" ? "-" : $0 }) }

    /// Parses what `description` or `settingValue` prints (with "-" or "−"), or a decimal rounded to the
    /// nearest third ("+0.7", "-1.3"). Nil outside ±3 or for anything else.
    public init?(parsing text: String) {
        var body = Substring(text.map { $0 == "\u{2212}" ? "-" : $0 })
        var sign = 1
        if body.hasPrefix("+") { body = body.dropFirst() } else if body.hasPrefix("-") { sign = -1; body = body.dropFirst() }
        var thirds: Int?
        let parts = body.split(separator: " ")
        func fraction(_ s: Substring) -> Int? {
            switch s { case "1/3": 1; case "2/3": 2; default: nil }
        }
        // Numbers far outside the range are refused before they are scaled (a huge one would
        // overflow); the range's own check below then decides.
        let largest = ExposureCompensation.range.upperBound
        if parts.count == 2, let whole = Int(parts[0]), (0...largest).contains(whole), let f = fraction(parts[1]) {
            thirds = whole * 3 + f
        } else if parts.count == 1, let f = fraction(parts[0]) {
            thirds = f
        } else if parts.count == 1, let whole = Int(parts[0]), (0...largest).contains(whole) {
            thirds = whole * 3
        } else if parts.count == 1, let value = Double(parts[0]), value >= 0, value <= Double(largest) {
            thirds = Int((value * 3).rounded())
        }
        guard let thirds, ExposureCompensation.range.contains(sign * thirds) else { return nil }
        self.init(thirds: sign * thirds)
    }
}
