/// One line of the quick menu: a setting the dials do not reach, its name, its value as
/// shown, and a step through its values.
public enum QuickMenuItem: Int, Sendable, CaseIterable {
    case format, exposureCompensation, zebras, focusPeaking, framingGrid, jpegQuality, geotag, geotagPrecision, autoZoom,
         autoZoomFraming

    public var title: String {
        switch self {
        case .format: "Format"
        case .exposureCompensation: "Exposure compensation"
        case .zebras: "Zebras"
        case .focusPeaking: "Focus peaking"
        case .framingGrid: "Framing grid"
        case .jpegQuality: "JPEG quality"
        case .geotag: "Geotag"
        case .geotagPrecision: "Location precision"
        case .autoZoom: "Auto zoom"
        case .autoZoomFraming: "Auto zoom framing"
        }
    }

    public func value(_ settings: CameraSettings) -> String {
        func onOff(_ on: Bool) -> String { on ? "On" : "Off" }
        switch self {
        case .format: return settings.format.label
        case .exposureCompensation: return settings.exposureCompensation.description
        case .zebras: return onOff(settings.zebras)
        case .focusPeaking: return onOff(settings.focusPeaking)
        case .framingGrid: return onOff(settings.framingGrid)
        case .jpegQuality: return settings.jpegQuality.label
        case .geotag: return onOff(settings.geotag)
        case .geotagPrecision: return settings.geotagPrecision == .precise ? "Precise" : "Approximate"
        case .autoZoom: return onOff(settings.autoZoom)
        case .autoZoomFraming: return settings.autoZoomFraming.rawValue.prefix(1).uppercased() + settings.autoZoomFraming.rawValue.dropFirst()
        }
    }

    /// Steps the value `by` places (signed) in `model`. Exposure compensation stops at ±3
    /// (`bumped`); the others go round. Returns whether anything changed.
    public func step(by steps: Int, in model: inout CameraModel) -> (changed: Bool, bumped: Bool) {
        guard steps != 0 else { return (false, false) }
        func cycle<T: Equatable>(_ values: [T], from current: T) -> T {
            let index = values.firstIndex(of: current) ?? 0
            return values[((index + steps) % values.count + values.count) % values.count]
        }
        let before = model.settings
        var bumped = false
        switch self {
        case .format:
            model.setFormat(cycle(model.availableFormats, from: model.settings.format))
        case .exposureCompensation:
            let wanted = model.settings.exposureCompensation.thirds + steps
            bumped = !ExposureCompensation.range.contains(wanted)
            model.setExposureCompensation(ExposureCompensation(thirds: wanted))
        case .zebras: model.update { $0.zebras.toggle() }
        case .focusPeaking: model.update { $0.focusPeaking.toggle() }
        case .framingGrid: model.update { $0.framingGrid.toggle() }
        case .jpegQuality: model.update { $0.jpegQuality = cycle(JPEGQuality.allCases, from: $0.jpegQuality) }
        case .geotag: model.setGeotag(!model.settings.geotag)
        case .geotagPrecision:
            model.update { $0.geotagPrecision = cycle(GeotagPrecision.allCases, from: $0.geotagPrecision) }
        case .autoZoom: model.update { $0.autoZoom.toggle() }
        case .autoZoomFraming:
            model.update { $0.autoZoomFraming = cycle(AutoFraming.Size.allCases, from: $0.autoZoomFraming) }
        }
        // (An on/off switch flips once however many steps: a flick is one change.)
        return (model.settings != before, bumped)
    }
}
