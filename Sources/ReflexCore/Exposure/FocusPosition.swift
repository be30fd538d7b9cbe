/// A lens position from 0.0 (closest, macro) to 1.0 (infinity), held in thousandths so
/// that stepping by 0.02 never drifts and a 0.1 mark is hit exactly.
public struct FocusPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let scale = 1000
    /// 0 … 1000.
    public let thousandths: Int

    public init(thousandths: Int) {
        self.thousandths = min(max(thousandths, 0), FocusPosition.scale)
    }

    /// Rounded to the nearest thousandth and clamped to 0…1.
    public init(_ value: Double) {
        self.init(thousandths: Int((value * Double(FocusPosition.scale)).rounded()))
    }

    public static let macro = FocusPosition(thousandths: 0)
    public static let infinity = FocusPosition(thousandths: scale)

    public var value: Double { Double(thousandths) / Double(FocusPosition.scale) }

    public static func < (a: FocusPosition, b: FocusPosition) -> Bool { a.thousandths < b.thousandths }

    /// Shortest decimal form: 0, 0.35, 0.5, 1.
    public var description: String {
        if thousandths == FocusPosition.scale { return "1" }
        if thousandths == 0 { return "0" }
        var digits = String(thousandths)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }

    /// Parses a decimal 0…1 exactly (no binary rounding): "0.35", "1", ".5", "1.0".
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholeText = parts.first, parts.count <= 2 else { return nil }
        let whole = wholeText.isEmpty ? 0 : Int(wholeText)
        guard let whole, wholeText.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var fraction = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(digits) else { return nil }
            fraction = value * [100, 10, 1][digits.count - 1]
        }
        // A whole part beyond 1 is refused before it is scaled (a long one would overflow).
        guard whole <= 1, !(wholeText.isEmpty && parts.count == 1) else { return nil }
        let total = whole * FocusPosition.scale + fraction
        guard total <= FocusPosition.scale else { return nil }
        self.init(thousandths: total)
    }

    /// The approximate distance shown beside the dial. A lens position is not a distance,
    /// so this follows the mapping of the focus dial's distance labels (docs/camera.md, Auto and Pro):
    /// up to 0.10 → 0.1m, 0.20 → 0.3m, 0.40 → 0.5m, 0.60 → 1m, 0.80 → 2m, 0.95 → 5m,
    /// above → ∞. Each bound belongs to the nearer band, as in the seed's first-match switch.
    public var distanceLabel: String {
        switch thousandths {
        case ...100: return "0.1m"
        case ...200: return "0.3m"
        case ...400: return "0.5m"
        case ...600: return "1m"
        case ...800: return "2m"
        case ...950: return "5m"
        default: return "∞"
        }
    }
}
