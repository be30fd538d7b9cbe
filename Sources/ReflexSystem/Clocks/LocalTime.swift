#if canImport(Glibc)
import Glibc
#endif

/// Times as a camera shows them, in its own time zone.
public enum LocalTime {
    /// "2026-11-26 10:12:03" for `seconds` since the epoch.
    public static func text(_ seconds: Int64) -> String {
        var whole = time_t(seconds), parts = tm()
        localtime_r(&whole, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
