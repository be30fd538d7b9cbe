import ReflexCore
import ReflexSystem

/// The last photo number used, kept with the settings (cameras' "file number memory"), so
/// numbers keep rising across cards and a card emptied on a computer: the next photo is
/// numbered after both this and the highest number on the card. Written before the photo's
/// files, so a power cut between the two can skip a number but never reuse one.
public struct PhotoCounter: Sendable {
    public static let fileName = "photo-counter"
    public let folder: String

    public init(folder: String) { self.folder = folder }

    public var path: String { folder + "/" + PhotoCounter.fileName }

    /// The last number used; nil when none was (or the file is unreadable: the card decides).
    public func load() -> PhotoNumber? {
        guard let bytes = try? AtomicFile.read(path, limit: 64),
              let ordinal = Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }) else { return nil }
        return PhotoNumber(ordinal: ordinal)
    }

    public func save(_ number: PhotoNumber) throws(SystemError) {
        try AtomicFile.createFolder(folder)
        try AtomicFile.write(Array("\(number.ordinal)\n".utf8), to: path)
    }

    /// The number the next photo gets on `card` (nil: every number is used).
    public func next(on card: PhotoCard) -> PhotoNumber? {
        PhotoNumber.next(afterCounter: load(), highestOnCard: card.highestNumber())
    }
}
