/// Which keys are the shutter's half and full press: KEY_CAMERA_FOCUS and KEY_CAMERA (what
/// Linux's `gpio-keys` and phones' camera buttons send), or the board's own
/// (`Board/<board>/controls.conf`: `shutter-key`, `half-press-key`, as key codes).
public struct ShutterKeys: Sendable, Equatable {
    public var full: UInt32
    public var half: UInt32

    public init(full: UInt32 = KeyCode.camera, half: UInt32 = KeyCode.cameraFocus) {
        (self.full, self.half) = (full, half)
    }

    public typealias Problem = KeyValueText.ConfigurationProblem

    /// Reads `controls.conf`'s shutter keys (other keys are for other controls).
    public static func parse(_ text: String) -> Result<ShutterKeys, Problem> {
        var keys = ShutterKeys()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            guard key == "shutter-key" || key == "half-press-key" else { return .unknownKey }
            guard let code = UInt32(value), code > 0, code < 0x300 else { return .badValue }
            if key == "shutter-key" { keys.full = code } else { keys.half = code }
            return .accepted
        }
        return problem.map { .failure($0) } ?? .success(keys)
    }
}
