import ReflexCore

/// Which screen the camera shows.
public enum CameraScreen: Sendable, Equatable {
    /// The live picture with its controls.
    case live
    /// No camera at all: "No camera found".
    case noCamera
    /// The camera went away while streaming: "Camera disconnected — reconnecting".
    case reconnecting
}

public enum GPSIndicator: Sendable, Equatable {
    case off, searching, fix
}

/// The exposure the camera is using right now (metered in Auto, set in Pro).
public struct ExposureReadout: Sendable, Equatable {
    public var iso: Int
    public var shutter: ShutterSpeed
    /// f-number in tenths (28 = f/2.8); 0 when the board does not say.
    public var fNumberTenths: Int
    public var kelvin: Int

    public init(iso: Int, shutter: ShutterSpeed, fNumberTenths: Int, kelvin: Int) {
        (self.iso, self.shutter, self.fNumberTenths, self.kelvin) = (iso, shutter, fNumberTenths, kelvin)
    }
}

/// Everything the interface draws, as plain values: two equal states draw the same pixels,
/// so the loop repaints only when this changes.
public struct ViewState: Sendable, Equatable {
    public var screen: CameraScreen
    public var settings: CameraSettings
    public var readout: ExposureReadout
    public var hasFocusDial: Bool
    public var gps: GPSIndicator
    /// Pictures still being written.
    public var savingCount: Int
    public var storage: StorageIndicator
    /// Zebras are a setting, shown as set.
    public var zebras: Bool { settings.zebras }
    /// The digital zoom in tenths (10 = none), as the HUD shows it.
    public var zoomTenths = 10

    public init(screen: CameraScreen = .live, settings: CameraSettings = CameraSettings(),
                readout: ExposureReadout = ExposureReadout(iso: 100, shutter: ShutterSpeed(1, 125), fNumberTenths: 28, kelvin: 5500),
                hasFocusDial: Bool = true, gps: GPSIndicator = .off, savingCount: Int = 0,
                storage: StorageIndicator = .ready) {
        self.screen = screen
        self.settings = settings
        self.readout = readout
        self.hasFocusDial = hasFocusDial
        self.gps = gps
        self.savingCount = savingCount
        self.storage = storage
    }
}

/// The words and numbers on screen, apart from drawing so they can be tested.
public enum InterfaceText {
    /// "2.8", "11", "" when unknown.
    public static func fNumber(tenths: Int) -> String {
        guard tenths > 0 else { return "" }
        return tenths % 10 == 0 || tenths >= 100 ? "\((tenths + 5) / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// One HUD item: a short label and its value.
    public struct Item: Sendable, Equatable {
        public let label: String
        public let value: String
        /// The photographer fixed it (Pro); an automatic value is marked so.
        public let manual: Bool
    }

    /// The HUD's items, left to right: ISO, shutter, aperture, then exposure compensation
    /// (only when not zero, in Auto) and white balance.
    public static func hudItems(_ state: ViewState) -> [Item] {
        let pro = state.settings.mode == .pro
        // A manual value is shown as set, even before the sensor has caught up with it.
        let iso = pro ? state.settings.iso.manualValue : nil
        let shutter = pro ? state.settings.shutter.manualValue : nil
        var items = [
            Item(label: "ISO", value: "\(iso?.value ?? state.readout.iso)", manual: iso != nil),
            Item(label: "SHUTTER", value: "\(shutter ?? state.readout.shutter)", manual: shutter != nil),
        ]
        let f = fNumber(tenths: state.readout.fNumberTenths)
        if !f.isEmpty { items.append(Item(label: "APERTURE", value: "f/" + f, manual: false)) }
        if state.settings.exposureCompensation != .zero && !(pro && state.settings.iso.manualValue != nil
                                                              && state.settings.shutter.manualValue != nil) {
            items.append(Item(label: "EV", value: state.settings.exposureCompensation.description, manual: false))
        }
        if state.zoomTenths > 10 {
            items.append(Item(label: "ZOOM", value: "\(state.zoomTenths / 10).\(state.zoomTenths % 10)×", manual: false))
        }
        let wbManual = pro && state.settings.whiteBalance != .auto
        items.append(Item(label: "WB", value: wbManual ? "\(state.settings.whiteBalance.kelvin ?? state.readout.kelvin)K"
                                                        : "AUTO", manual: wbManual))
        return items
    }

    /// The value a dial face shows: its manual value, or what Auto is using.
    public static func dialValue(_ dial: Dial, _ state: ViewState) -> String {
        let s = state.settings
        switch dial {
        case .iso: return "\(s.iso.manualValue?.value ?? state.readout.iso)"
        case .shutter: return "\(s.shutter.manualValue ?? state.readout.shutter)"
        case .focus: return s.focus.manualValue?.distanceLabel ?? "AF"
        case .whiteBalance:
            if case .preset(let preset) = s.whiteBalance { return preset.name }
            return "\(s.whiteBalance.kelvin ?? state.readout.kelvin)K"
        }
    }

    public static func dialName(_ dial: Dial) -> String {
        switch dial {
        case .iso: "ISO"
        case .shutter: "SHUTTER"
        case .focus: "FOCUS"
        case .whiteBalance: "WHITE BALANCE"
        }
    }

    public static func isManual(_ dial: Dial, _ settings: CameraSettings) -> Bool {
        switch dial {
        case .iso: settings.iso.manualValue != nil
        case .shutter: settings.shutter.manualValue != nil
        case .focus: settings.focus.manualValue != nil
        case .whiteBalance: settings.whiteBalance != .auto
        }
    }

    public static func presetName(_ whiteBalance: WhiteBalance) -> String {
        switch whiteBalance {
        case .auto: "Auto"
        case .preset(let preset): preset.name
        case .kelvin(let k): "\(k)K"
        }
    }

    /// The indicators at the right of the HUD, left to right.
    public static func indicators(_ state: ViewState) -> [(text: String, attention: Bool)] {
        var result: [(String, Bool)] = []
        if state.savingCount > 0 { result.append(("Saving \(state.savingCount)…", false)) }
        switch state.storage {
        case .ready: break
        case .low(let left): result.append(("Low storage · \(left) left", true))
        case .missing: result.append(("No card", true))
        }
        switch state.gps {
        case .off: break
        case .searching: result.append(("GPS …", false))
        case .fix: result.append(("GPS", false))
        }
        result.append((state.settings.format.label, false))
        return result
    }

    /// Title and explanation of each failure screen.
    public static func message(_ screen: CameraScreen) -> (title: String, detail: String)? {
        switch screen {
        case .live: nil
        case .noCamera: ("No camera found", "Connect the camera module. Reflex will find it by itself.")
        case .reconnecting: ("Camera disconnected — reconnecting", "Check the camera's cable. The picture comes back as soon as it does.")
        }
    }

    public static let storageMissing = (title: "Storage card missing",
                                        detail: "Insert a card to take pictures. The viewfinder keeps working.")
}
