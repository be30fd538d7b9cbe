/// A setting a host on the cable asks the camera to take (SetDevicePropValue), applied as the
/// camera's own dials and menus apply it, so its screen shows what the computer did.
public enum PTPSettingChange: Sendable, Equatable {
    case iso(ManualValue<ISOSpeed>)
    case shutter(ManualValue<ShutterSpeed>)
    case whiteBalance(WhiteBalance)
    case exposureCompensation(ExposureCompensation)
    case mode(ShootingMode)
    case drive(DriveMode)
    case format(CaptureFormat)
}
