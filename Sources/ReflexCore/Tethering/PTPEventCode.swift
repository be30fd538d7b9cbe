/// What the camera tells the host unasked, on the interrupt endpoint (ISO 15740 §12).
public enum PTPEventCode: UInt16, Sendable, CaseIterable {
    case cancelTransaction = 0x4001
    case objectAdded = 0x4002
    case objectRemoved = 0x4003
    case storeAdded = 0x4004
    case storeRemoved = 0x4005
    case devicePropChanged = 0x4006
    case deviceInfoChanged = 0x4008
    case storageInfoChanged = 0x400C
    case captureComplete = 0x400D
}
