import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The board's status LED through the kernel's LED class (`/sys/class/leds/NAME`): the
/// self-timer blinks it, so the people in front of the camera see the countdown too. Opened
/// once; `set` is one write of a few bytes when the state changes (the kernel defers a slow
/// LED's own work), so the realtime loop may call it every frame.
public final class StatusLight {
    public let name: String
    /// Dark (0) or the LED's full brightness.
    private let brightness: SysfsBrightness

    /// `name` is the LED's, or a pattern with `*` for an LED whose number changes from boot
    /// to boot (an input device's, `input*::misc`): the first LED it matches, by name order.
    /// Nil, with the reason logged, when the board has no such LED or it cannot be written.
    public init?(name pattern: String, folder: String = "/sys/class/leds", log: (String) -> Void) {
        guard let name = SysfsName.resolve(pattern, in: folder) else {
            log("status light \(pattern): no LED of that name in \(folder); the self-timer blinks nothing")
            return nil
        }
        let path = folder + "/" + name
        let maximum = SmallFile.text(path + "/max_brightness").flatMap { Int($0.filter { !$0.isWhitespace }) } ?? 1
        guard let brightness = SysfsBrightness(path: path + "/brightness", off: 0, on: max(maximum, 1)) else {
            log("status light \(name): cannot open \(path)/brightness (\(String(cString: strerror(errno)))); the self-timer blinks nothing")
            return nil
        }
        (self.name, self.brightness) = (name, brightness)
    }

    deinit {
        if brightness.isOn == true { set(false) }
    }

    /// Lit or dark; a write only when that changes.
    public func set(_ on: Bool) { brightness.set(on) }
}
