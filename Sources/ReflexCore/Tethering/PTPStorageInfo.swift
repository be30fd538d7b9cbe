/// The StorageInfo dataset (ISO 15740 §5.5.3): the card as a host sees it — removable, DCF,
/// its size and free space; read-only to the host but for deleting (the card is the camera's).
public struct PTPStorageInfo: Sendable, Equatable {
    public var capacityBytes: UInt64
    public var freeBytes: UInt64
    /// Photos that still fit, as the camera's screen counts them (0xFFFFFFFF: not known).
    public var freeImages: UInt32
    public var description: String
    public var volumeLabel: String

    static let removableRAM: UInt16 = 0x0004
    static let dcf: UInt16 = 0x0003
    static let readOnlyWithDeletion: UInt16 = 0x0002

    public init(capacityBytes: UInt64, freeBytes: UInt64, freeImages: UInt32, description: String, volumeLabel: String) {
        (self.capacityBytes, self.freeBytes, self.freeImages) = (capacityBytes, freeBytes, freeImages)
        (self.description, self.volumeLabel) = (description, volumeLabel)
    }

    public func encoded() -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(Self.removableRAM)
        writer.append(Self.dcf)
        writer.append(Self.readOnlyWithDeletion)
        writer.append(capacityBytes)
        writer.append(freeBytes)
        writer.append(freeImages)
        writer.append(string: description)
        writer.append(string: volumeLabel)
        return writer.bytes
    }
}
