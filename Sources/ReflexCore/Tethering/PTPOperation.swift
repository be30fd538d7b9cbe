/// The operations a host asks of a camera (ISO 15740 §10.4, and MTP's object properties),
/// those Reflex answers; any other code is answered OperationNotSupported.
public enum PTPOperation: UInt16, Sendable, CaseIterable {
    case getDeviceInfo = 0x1001
    case openSession = 0x1002
    case closeSession = 0x1003
    case getStorageIDs = 0x1004
    case getStorageInfo = 0x1005
    case getNumObjects = 0x1006
    case getObjectHandles = 0x1007
    case getObjectInfo = 0x1008
    case getObject = 0x1009
    case getThumb = 0x100A
    case deleteObject = 0x100B
    case sendObjectInfo = 0x100C
    case sendObject = 0x100D
    case initiateCapture = 0x100E
    case getDevicePropDesc = 0x1014
    case getDevicePropValue = 0x1015
    case setDevicePropValue = 0x1016
    case getPartialObject = 0x101B
    case getObjectPropsSupported = 0x9801
    case getObjectPropDesc = 0x9802
    case getObjectPropValue = 0x9803
    case getObjectPropList = 0x9805

    /// Whether the host sends a data phase after the command (the camera reads it before
    /// answering, even to refuse it: the host is already sending).
    public var hostSendsData: Bool {
        switch self {
        case .sendObjectInfo, .sendObject, .setDevicePropValue: true
        default: false
        }
    }

    /// Whether it may come outside a session (§9.2: only these two).
    public var needsNoSession: Bool { self == .getDeviceInfo || self == .openSession }
}
