import ReflexCore

/// The scales the dials step through, from the camera model (fitted to the sensor).
public struct DialScales: Sendable, Equatable {
    public let iso: ISOScale
    public let shutter: ShutterScale
    public let focus: FocusScale
    public let kelvin: KelvinScale

    public init(_ model: CameraModel) {
        iso = model.isoScale
        shutter = model.shutterScale
        focus = model.focusScale
        kelvin = model.kelvinScale
    }
}
