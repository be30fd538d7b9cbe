/// What the camera answers a command with (ISO 15740 §11): OK, or why not.
public enum PTPResponseCode: UInt16, Sendable, Error {
    case ok = 0x2001
    case generalError = 0x2002
    case sessionNotOpen = 0x2003
    case invalidTransactionID = 0x2004
    case operationNotSupported = 0x2005
    case parameterNotSupported = 0x2006
    case incompleteTransfer = 0x2007
    case invalidStorageID = 0x2008
    case invalidObjectHandle = 0x2009
    case devicePropNotSupported = 0x200A
    case invalidObjectFormatCode = 0x200B
    case storeFull = 0x200C
    case objectWriteProtected = 0x200D
    case storeReadOnly = 0x200E
    case accessDenied = 0x200F
    case noThumbnailPresent = 0x2010
    case storeNotAvailable = 0x2013
    case specificationByFormatUnsupported = 0x2014
    case invalidCodeFormat = 0x2016
    case deviceBusy = 0x2019
    case invalidParentObject = 0x201A
    case invalidDevicePropFormat = 0x201B
    case invalidDevicePropValue = 0x201C
    case invalidParameter = 0x201D
    case sessionAlreadyOpen = 0x201E
    case transactionCancelled = 0x201F
    case specificationByGroupUnsupported = 0xA807
    case objectPropNotSupported = 0xA80A
}
