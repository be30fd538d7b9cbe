#if canImport(Glibc)
import Glibc
#endif

/// A sysfs `brightness` file (a backlight's, an LED's) switched between two levels: opened
/// once, and one write of a few bytes only when the level changes, so the realtime loop may
/// set it every frame.
final class SysfsBrightness {
    private let descriptor: Int32
    private let offLevel: [UInt8]
    private let onLevel: [UInt8]
    /// The level last written (nil: none yet, whatever the file holds).
    private(set) var isOn: Bool?

    /// Nil when `path` cannot be opened for writing (errno says why). `isOn`: the level the
    /// file is known to hold already, if any.
    init?(path: String, off: Int, on: Int, isOn: Bool? = nil) {
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        (offLevel, onLevel, self.isOn) = (Array("\(off)\n".utf8), Array("\(on)\n".utf8), isOn)
    }

    deinit { close(descriptor) }

    /// On or off; a write only when that changes.
    func set(_ on: Bool) {
        guard isOn != on else { return }
        isOn = on
        let bytes = on ? onLevel : offLevel
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
