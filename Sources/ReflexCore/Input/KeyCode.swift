/// The key codes Reflex answers (linux/input-event-codes.h), so the rules need no C.
public enum KeyCode {
    public static let volumeDown: UInt32 = 114
    public static let volumeUp: UInt32 = 115
    /// The shutter's full press.
    public static let camera: UInt32 = 212
    /// The shutter's half press (KEY_CAMERA_FOCUS).
    public static let cameraFocus: UInt32 = 0x210
    public static let zoomIn: UInt32 = 0x1A2
    public static let zoomOut: UInt32 = 0x1A3
    public static let menu: UInt32 = 139
    public static let record: UInt32 = 167
    /// Review's keys: KEY_PLAY opens and closes it, KEY_DELETE asks to delete.
    public static let play: UInt32 = 207
    public static let delete: UInt32 = 111
}
