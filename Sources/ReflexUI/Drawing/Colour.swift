import ReflexCore

/// A colour with straight (not premultiplied) alpha, components 0…1.
public struct Colour: Sendable, Equatable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    public func withAlpha(_ alpha: Double) -> Colour { Colour(red: red, green: green, blue: blue, alpha: alpha) }

    /// This colour laid over an opaque one.
    public func over(_ below: Colour) -> Colour {
        Colour(red: red * alpha + below.red * (1 - alpha), green: green * alpha + below.green * (1 - alpha),
               blue: blue * alpha + below.blue * (1 - alpha))
    }

    /// WCAG 2 relative luminance of an opaque colour.
    public var relativeLuminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.040_45 ? c / 12.92 : FastMath.pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2 contrast ratio of two opaque colours (1…21; AA text needs 4.5).
    public static func contrast(_ a: Colour, _ b: Colour) -> Double {
        let (la, lb) = (a.relativeLuminance, b.relativeLuminance)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}
