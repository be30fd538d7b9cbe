import CLinux
import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A force-feedback device that can rumble (a board's `pwm-vibrator` or `gpio-vibra`, a
/// phone's motor, a gamepad), with Reflex's effects uploaded into it once. Playing one is a
/// single write of one event: the driver times the motor.
public final class Vibrator: @unchecked Sendable {
    public let path: String
    public let name: String
    let descriptor: Int32
    /// The id the device gave each effect, in `HapticEffect` order.
    let effectIDs: [UInt8]

    /// The vibrator at `path`; nil if it is not one (no rumble). Throws if it is one but
    /// cannot be opened or loaded.
    public static func open(path: String) throws(SystemError) -> Vibrator? {
        let descriptor = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path: path) }
        let rumbles = reflex_evdev_can_rumble(descriptor)
        guard rumbles == 1 else {
            _ = close(descriptor)
            if rumbles < 0 { throw SystemError("EVIOCGBIT", path: path, code: -rumbles) }
            return nil
        }
        var ids: [UInt8] = []
        for effect in HapticEffect.allCases {
            let id = reflex_evdev_upload_rumble(descriptor, effect.strongMagnitude, effect.weakMagnitude, effect.milliseconds)
            guard id >= 0, id < 0xFF else {
                _ = close(descriptor)
                throw SystemError("EVIOCSFF", path: path, code: id < 0 ? -id : ERANGE)
            }
            ids.append(UInt8(id))
        }
        return Vibrator(path: path, name: Vibrator.deviceName(descriptor), descriptor: descriptor, effectIDs: ids)
    }

    private init(path: String, name: String, descriptor: Int32, effectIDs: [UInt8]) {
        self.path = path
        self.name = name
        self.descriptor = descriptor
        self.effectIDs = effectIDs
    }

    deinit { _ = close(descriptor) }

    /// Its descriptor and effect ids in one word, for the realtime loop to load atomically.
    var loaded: LoadedEffects { LoadedEffects(descriptor: descriptor, effectIDs: effectIDs) }

    private static func deviceName(_ descriptor: Int32) -> String {
        var name = [CChar](repeating: 0, count: 256)
        // EVIOCGNAME(len) = _IOC(_IOC_READ, 'E', 0x06, len)
        let request = UInt(2 << 30) | UInt(name.count << 16) | UInt(Character("E").asciiValue!) << 8 | 0x06
        guard ioctl(descriptor, request, &name) >= 0 else { return "unnamed" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
