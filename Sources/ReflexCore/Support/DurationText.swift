/// Durations as a photographer writes them in the settings and reads them in the menu:
/// "2s", "30s", "1m", "1m30s", "2h", "1h15m", "24h" (or a plain number of seconds). Whole
/// seconds only: an intervalometer's choices are seconds apart.
public enum DurationText {
    /// The shortest exact form: "0s", "45s", "2m", "1m30s", "1h5m20s".
    public static func text(_ seconds: Int) -> String {
        guard seconds > 0 else { return "0s" }
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        var text = ""
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 { text += "\(rest)s" }
        return text
    }

    /// Parses `text`'s forms (hours, minutes and seconds in that order, each once), or plain
    /// seconds; nil for anything else or beyond a week (a typo, not an interval).
    public static func seconds(parsing text: String) -> Int? {
        let word = text.lowercased().filter { $0 != " " }
        if let plain = Int(word) { return (0...week).contains(plain) ? plain : nil }
        var total = 0, number: Int?, lastUnit = 0
        for character in word {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = (number ?? 0) * 10 + digit
                guard number! <= week else { return nil }
                continue
            }
            // h, m, s in that order: each unit's rank must rise.
            let units: [Character: (rank: Int, seconds: Int)] = ["h": (1, 3600), "m": (2, 60), "s": (3, 1)]
            guard let unit = units[character], let value = number, unit.rank > lastUnit else { return nil }
            total += value * unit.seconds
            guard total <= week else { return nil }
            (number, lastUnit) = (nil, unit.rank)
        }
        guard number == nil, lastUnit > 0 else { return nil }
        return total
    }

    private static let week = 7 * 86_400
}
