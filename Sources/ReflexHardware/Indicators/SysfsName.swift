import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A device in a sysfs class folder (`/sys/class/leds`, `/sys/class/backlight`) as a board
/// file names it: its name, or a pattern with `*` for one numbered as its device is (an
/// input device's LED, `input*::misc`), the first match by name.
enum SysfsName {
    static func resolve(_ pattern: String, in folder: String) -> String? {
        guard pattern.contains("*") else { return pattern }
        return namesInFolder(folder).sorted().first { fnmatch(pattern, $0, 0) == 0 }
    }
}
