/// An input device as libinput sees it, and what Reflex can use it for.
public struct InputDeviceInfo: Sendable, Equatable {
    public let path: String
    public let name: String
    /// libinput's capabilities: touch, pointer, keyboard, tablet-pad, switch, gesture.
    public let capabilities: [String]
}
