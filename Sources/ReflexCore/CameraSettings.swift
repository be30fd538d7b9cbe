/// Auto lets the camera decide; Pro shows the dials (seed 000 story 2.1).
public enum ShootingMode: String, Sendable, CaseIterable {
    case auto, pro
}

/// What the shutter saves (seed 002 story 4.3).
public enum CaptureFormat: String, Sendable, CaseIterable {
    case jpeg
    case raw
    case rawPlusJPEG = "raw+jpeg"

    /// The on-screen indicator.
    public var label: String {
        switch self {
        case .jpeg: "JPEG"
        case .raw: "RAW"
        case .rawPlusJPEG: "RAW+JPEG"
        }
    }

    public var savesRaw: Bool { self != .jpeg }
}

/// How exact the saved coordinates are (seed 002 story 4.4: precise or approximate).
public enum GeotagPrecision: String, Sendable, CaseIterable {
    case precise, approximate
}

/// A parameter the camera sets itself, or one the photographer fixed on a dial.
public enum ManualValue<Value: Sendable & Hashable>: Sendable, Hashable {
    case auto
    case manual(Value)

    public var manualValue: Value? {
        if case .manual(let value) = self { return value }
        return nil
    }
}

/// Everything the camera remembers across restarts and power loss. Defaults are the first
/// start: Auto, JPEG, geotag off.
public struct CameraSettings: Sendable, Hashable {
    public var mode: ShootingMode = .auto
    public var format: CaptureFormat = .jpeg
    public var geotag = false
    public var geotagPrecision: GeotagPrecision = .precise
    public var iso: ManualValue<ISOSpeed> = .auto
    public var shutter: ManualValue<ShutterSpeed> = .auto
    public var focus: ManualValue<FocusPosition> = .auto
    public var whiteBalance: WhiteBalance = .auto
    /// The dial the thumb zone had selected.
    public var selectedDial: Dial = .iso
    /// Auto exposure's compensation; kept across modes (it is not a manual value).
    public var exposureCompensation: ExposureCompensation = .zero
    /// Stripes over the clipped parts of the picture (an option; off by default).
    public var zebras = false

    public init() {}

    public static let firstStart = CameraSettings()

    /// Auto mode has no manual parameter: every one goes back to automatic.
    public var hasManualParameters: Bool {
        iso != .auto || shutter != .auto || focus != .auto || whiteBalance != .auto
    }

    /// Switches mode; leaving Pro returns every manual parameter to automatic.
    public mutating func setMode(_ newMode: ShootingMode) {
        mode = newMode
        if newMode == .auto {
            iso = .auto
            shutter = .auto
            focus = .auto
            whiteBalance = .auto
        }
    }
}
