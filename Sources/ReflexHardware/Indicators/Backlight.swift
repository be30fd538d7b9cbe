import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The panel's backlight through the kernel's backlight class (`/sys/class/backlight/NAME`):
/// dimmed while an interval run waits between photos, to save the battery, and back as it was
/// at any input. Full is the brightness found at start (the board's or the photographer's
/// choice); dim a tenth of the most. Opened once; `dim` is one write of a few bytes when the
/// state changes, so the realtime loop may call it every frame.
public final class Backlight {
    public let name: String
    /// "On" is dimmed; the file holds full brightness at start.
    private let brightness: SysfsBrightness

    /// The share of the most brightness the dimmed screen keeps: readable up close, dark enough
    /// to save most of a backlight's power.
    public static let dimFraction = 0.1

    /// `name` is the device's, or a pattern with `*` (the first match by name: `*` for a
    /// board's only backlight). Nil, with the reason logged, when there is none or it cannot
    /// be written.
    public init?(name pattern: String, folder: String = "/sys/class/backlight", log: (String) -> Void) {
        guard let name = SysfsName.resolve(pattern, in: folder) else {
            log("backlight \(pattern): none of that name in \(folder); the screen is not dimmed")
            return nil
        }
        let path = folder + "/" + name
        let number = { (file: String) -> Int? in SmallFile.text(path + "/" + file).flatMap { Int($0.filter { !$0.isWhitespace }) } }
        guard let maximum = number("max_brightness"), maximum > 0 else {
            log("backlight \(name): no max_brightness in \(path); the screen is not dimmed")
            return nil
        }
        let now = min(number("brightness") ?? maximum, maximum)
        let low = min(max(Int((Double(maximum) * Backlight.dimFraction).rounded()), 1), max(now, 1))
        guard let brightness = SysfsBrightness(path: path + "/brightness", off: now, on: low, isOn: false) else {
            log("backlight \(name): cannot open \(path)/brightness (\(String(cString: strerror(errno)))); the screen is not dimmed")
            return nil
        }
        (self.name, self.brightness) = (name, brightness)
    }

    deinit { dim(false) }

    /// Dimmed or at full; a write only when that changes.
    public func dim(_ on: Bool) { brightness.set(on) }
}
