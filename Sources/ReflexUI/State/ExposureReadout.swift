import ReflexCore

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
