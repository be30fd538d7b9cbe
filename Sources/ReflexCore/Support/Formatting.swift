/// Number and column formatting for tables, without Foundation.
public enum Formatting {
    /// `value` with `decimals` digits after the point, right-aligned in `width` characters.
    public static func fixed(_ value: Double, _ decimals: Int, width: Int = 0) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled - Double(whole) * scale))
        fraction = String(repeating: "0", count: max(decimals - fraction.count, 0)) + fraction
        let text = (value < 0 && scaled > 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
        return pad(text, width)
    }

    /// Right-aligned in `width` characters.
    public static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// Left-aligned in `width` characters.
    public static func padRight(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// A zoom factor as a lens button says it: "0.5x", "1x", "3x", "2.5x".
    public static func zoomLabel(_ factor: Double) -> String {
        let tenths = Int((factor * 10).rounded())
        return (tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)") + "x"
    }

    /// A recording's elapsed time as cameras show it: "0:07", "12:34", "1:02:03".
    public static func recordingTime(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// The recording time a card has left: "45 s", "25 min", "2 h 10 min".
    public static func recordingTimeLeft(_ seconds: Int) -> String {
        if seconds < 60 { return "\(max(seconds, 0)) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
