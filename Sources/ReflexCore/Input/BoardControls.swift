/// Which of the board's controls does what (Board/<board>/controls.conf): each rotary
/// encoder's role, and the keys for the shutter, the zoom, the menu, recording, the next
/// dial and review. Encoders are named by the udev property REFLEX_DIAL the board's rules
/// give them (or by their device name); a wheel named nowhere (a USB knob) turns the
/// selected dial.
public struct BoardControls: Sendable, Equatable {
    public enum EncoderRole: Sendable, Equatable {
        /// Turns the dial selected on screen (its push, a `next-dial-key`, selects the next).
        case selectedDial
        /// Picks which dial is selected.
        case dialPicker
        /// Always turns this dial (a front dial for the shutter, a lens ring for focus).
        case dial(Dial)
    }

    public struct Encoder: Sendable, Equatable {
        public var name: String
        public var role: EncoderRole
        public init(name: String, role: EncoderRole) { (self.name, self.role) = (name, role) }
    }

    /// The encoders by name, in the order InputSource numbers them.
    public var encoders = [Encoder(name: "1", role: .selectedDial), Encoder(name: "2", role: .dialPicker)]
    public var shutterKeys = ShutterKeys()
    public var zoomInKeys = [KeyCode.zoomIn, KeyCode.volumeUp]
    public var zoomOutKeys = [KeyCode.zoomOut, KeyCode.volumeDown]
    public var menuKeys = [KeyCode.menu]
    public var recordKeys = [KeyCode.record]
    /// Turns auto-zoom on and off: the first programmable key (KEY_PROG1) unless the board
    /// names another.
    public var autoZoomKeys: [UInt32] = [148]
    /// Opens and closes review (the newest photo full screen), and deletes there.
    public var playKeys = [KeyCode.play]
    public var deleteKeys = [KeyCode.delete]
    /// An encoder's push (libinput reports it as a pointer button: BTN_LEFT) selects the next dial.
    public var nextDialKeys: [UInt32] = [0x110]
    /// The LED (its name under /sys/class/leds) the self-timer blinks; nil: none.
    public var statusLight: String?

    public init() {}

    /// The role of encoder `index` (as InputSource numbers them; -1: one named nowhere).
    public func role(ofEncoder index: Int) -> EncoderRole {
        encoders.indices.contains(index) ? encoders[index].role : .selectedDial
    }

    /// The number of the encoder called `name` (its REFLEX_DIAL value or device name).
    public func encoderIndex(named name: String) -> Int? { encoders.firstIndex { $0.name == name } }

    public typealias Problem = KeyValueText.ConfigurationProblem

    /// Reads controls.conf. Keys are named (`KEY_CAMERA`) or numbered, several separated by
    /// commas; `encoder.<name> = selected-dial | dial-picker | iso | shutter | focus | wb`;
    /// `status-led = NAME` (an LED of /sys/class/leds).
    /// Encoders given replace the default two; keys not given keep their defaults.
    public static func parse(_ text: String) -> Result<BoardControls, Problem> {
        var controls = BoardControls()
        var encoders: [Encoder] = []
        let problem = KeyValueText.readConfiguration(text) { key, value in
            if key.hasPrefix("encoder.") {
                let name = String(key.dropFirst("encoder.".count))
                guard !name.isEmpty, let role = encoderRole(value) else { return .badValue }
                encoders.append(Encoder(name: name, role: role))
                return .accepted
            }
            if key == "status-led" {
                // A name the LED class gives: "reflex:status", "ACT", "green:status".
                guard !value.isEmpty, !value.contains("/"), value != ".", value != ".." else { return .badValue }
                controls.statusLight = value
                return .accepted
            }
            let codes = value.split(separator: ",").map { KeyName.code(String($0.trimmingWhitespace())) }
            guard !codes.isEmpty, codes.allSatisfy({ $0 != nil }) else { return .badValue }
            let keys = codes.map { $0! }
            switch key {
            case "shutter-key": controls.shutterKeys.full = keys[0]
            case "half-press-key": controls.shutterKeys.half = keys[0]
            case "zoom-in-keys": controls.zoomInKeys = keys
            case "zoom-out-keys": controls.zoomOutKeys = keys
            case "menu-keys": controls.menuKeys = keys
            case "record-keys": controls.recordKeys = keys
            case "auto-zoom-keys": controls.autoZoomKeys = keys
            case "next-dial-keys": controls.nextDialKeys = keys
            case "play-keys": controls.playKeys = keys
            case "delete-keys": controls.deleteKeys = keys
            default: return .unknownKey
            }
            return .accepted
        }
        if let problem { return .failure(problem) }
        // (Read in the keys' order: encoder.1 before encoder.2, front before rear.)
        if !encoders.isEmpty { controls.encoders = encoders }
        return .success(controls)
    }

    private static func encoderRole(_ value: String) -> EncoderRole? {
        switch value {
        case "selected-dial": .selectedDial
        case "dial-picker": .dialPicker
        default: Dial(rawValue: value).map(EncoderRole.dial)
        }
    }
}
