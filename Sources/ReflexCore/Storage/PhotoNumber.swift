/// A photo's place on the card in the DCF layout cameras use: folder `100REFLX`…`999REFLX`,
/// file `RFLX0001`…`RFLX9999` in it; after 9999 the next folder starts again at 0001. A RAW+JPEG
/// pair shares one number. Numbers only go up: `ordinal` orders them across folders.
public struct PhotoNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let filePrefix = "RFLX"
    public static let folderSuffix = "REFLX"
    public static let folders = 100...999
    public static let files = 1...9999

    public let folder: Int
    public let file: Int

    public init?(folder: Int, file: Int) {
        guard PhotoNumber.folders.contains(folder), PhotoNumber.files.contains(file) else { return nil }
        (self.folder, self.file) = (folder, file)
    }

    /// The first number a card gets.
    public static let first = PhotoNumber(folder: 100, file: 1)!

    /// The number after this one; nil when the last folder is full (999REFLX/RFLX9999).
    public var next: PhotoNumber? {
        file < PhotoNumber.files.upperBound ? PhotoNumber(folder: folder, file: file + 1) : PhotoNumber(folder: folder + 1, file: 1)
    }

    /// One integer in the numbers' order (folder × 10000 + file), for the counter file.
    public var ordinal: Int { folder * 10_000 + file }

    public init?(ordinal: Int) { self.init(folder: ordinal / 10_000, file: ordinal % 10_000) }

    public static func < (a: PhotoNumber, b: PhotoNumber) -> Bool { a.ordinal < b.ordinal }

    /// "100REFLX".
    public var folderName: String { "\(folder)" + PhotoNumber.folderSuffix }

    /// "RFLX0042" (the extension is the file's: .DNG, .JPG).
    public var fileStem: String {
        let digits = String(file)
        return PhotoNumber.filePrefix + String(repeating: "0", count: 4 - digits.count) + digits
    }

    public var description: String { folderName + "/" + fileStem }

    /// The folder number in a DCF folder name of ours ("100REFLX" → 100).
    public static func folder(named name: String) -> Int? {
        guard name.count == 8, name.hasSuffix(folderSuffix), let number = Int(name.prefix(3)),
              folders.contains(number), name.prefix(3).allSatisfy(\.isASCII) else { return nil }
        return number
    }

    /// The file number in a file name of ours ("RFLX0042.JPG" → 42; any extension, any case).
    public static func file(named name: String) -> Int? {
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        guard stem.count == 8, stem.uppercased().hasPrefix(filePrefix), !name.hasPrefix("."),
              let number = Int(stem.dropFirst(4)), stem.dropFirst(4).allSatisfy({ $0.isASCII && $0.isNumber }),
              files.contains(number) else { return nil }
        return number
    }

    /// The number the next shot gets: after both the counter kept with the settings and the
    /// highest number on the card (either may be missing, or behind: a card from another
    /// session, a counter lost with a reset). Nil when the card's numbers are used up.
    public static func next(afterCounter counter: PhotoNumber?, highestOnCard: PhotoNumber?) -> PhotoNumber? {
        guard let last = [counter, highestOnCard].compactMap({ $0 }).max() else { return .first }
        return last.next
    }
}
