import ReflexFormats
#if canImport(Glibc)
import Glibc
#endif

/// The wall-clock time of a moment given on the monotonic clock (an input event's time), in
/// local time with its UTC offset, as a photo's EXIF dates it.
public enum PhotoClock {
    public static func localTime(atMonotonic seconds: Double) -> PhotoTime {
        var realtime = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let now = Double(monotonic.tv_sec) + Double(monotonic.tv_nsec) * 1e-9
        let wall = Double(realtime.tv_sec) + Double(realtime.tv_nsec) * 1e-9 - max(now - seconds, 0)
        var whole = time_t(wall.rounded(.down))
        var parts = tm()
        localtime_r(&whole, &parts)
        return PhotoTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                         hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                         millisecond: min(Int((wall - wall.rounded(.down)) * 1000), 999),
                         utcOffsetMinutes: Int(parts.tm_gmtoff) / 60)
    }
}
