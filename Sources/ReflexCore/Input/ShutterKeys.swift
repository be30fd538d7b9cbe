/// Which keys are the shutter's half and full press: KEY_CAMERA_FOCUS and KEY_CAMERA (what
/// Linux's `gpio-keys` and phones' camera buttons send), or the board's own
/// (`Board/<board>/controls.conf`: `shutter-key`, `half-press-key`; see BoardControls).
public struct ShutterKeys: Sendable, Equatable {
    public var full: UInt32
    public var half: UInt32

    public init(full: UInt32 = KeyCode.camera, half: UInt32 = KeyCode.cameraFocus) {
        (self.full, self.half) = (full, half)
    }
}
