/// The standard device properties (ISO 15740 §13) the camera maps onto its own controls.
public enum PTPDeviceProperty: UInt16, Sendable, CaseIterable {
    case batteryLevel = 0x5001
    case compressionSetting = 0x5004
    case whiteBalance = 0x5005
    case fNumber = 0x5007
    case exposureTime = 0x500D
    case exposureProgramMode = 0x500E
    case exposureIndex = 0x500F
    case exposureBiasCompensation = 0x5010
    case dateTime = 0x5011
    case stillCaptureMode = 0x5013
}
