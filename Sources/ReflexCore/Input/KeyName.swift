/// The Linux key names a board's controls.conf may use (linux/input-event-codes.h), for the
/// keys a camera body has; any other key by its number.
public enum KeyName {
    static let codes: [String: UInt32] = [
        "KEY_ENTER": 28, "KEY_ESC": 1, "KEY_SPACE": 57, "KEY_UP": 103, "KEY_DOWN": 108, "KEY_LEFT": 105, "KEY_RIGHT": 106,
        "KEY_VOLUMEDOWN": 114, "KEY_VOLUMEUP": 115, "KEY_MENU": 139, "KEY_BACK": 158, "KEY_HOME": 102,
        "KEY_CAMERA": 212, "KEY_RECORD": 167, "KEY_PLAY": 207, "KEY_PLAYPAUSE": 164, "KEY_DELETE": 111, "KEY_OK": 0x160,
        "KEY_SELECT": 0x161, "KEY_INFO": 0x166, "KEY_OPTION": 0x165, "KEY_CAMERA_FOCUS": 0x210,
        "KEY_ZOOMIN": 0x1A2, "KEY_ZOOMOUT": 0x1A3, "KEY_PROG1": 148, "KEY_PROG2": 149, "KEY_PROG3": 202,
        "KEY_PROG4": 203, "KEY_F1": 59, "KEY_F2": 60, "KEY_F3": 61, "KEY_F4": 62,
        "BTN_0": 0x100, "BTN_1": 0x101, "BTN_2": 0x102, "BTN_3": 0x103, "BTN_4": 0x104, "BTN_5": 0x105,
        "BTN_LEFT": 0x110, "BTN_RIGHT": 0x111, "BTN_MIDDLE": 0x112,
    ]

    /// The code of `name` (`KEY_CAMERA`, or a number such as `212`); nil for neither.
    public static func code(_ name: String) -> UInt32? {
        if let code = codes[name.uppercased()] { return code }
        guard let number = UInt32(name), number > 0, number < 0x300 else { return nil }
        return number
    }
}
