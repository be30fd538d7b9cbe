/// One thing review shows: the files of a card's DCF folder that share a stem (a RAW+JPEG
/// pair is one item with both badges; a movie with its sidecars another), in the order review
/// goes through them, newest first.
public struct ReviewItem: Sendable, Equatable {
    /// One file of the item as the card lists it.
    public struct File: Sendable, Equatable {
        public var name: String
        public var kind: Kind
        public var bytes: Int64
        /// Seconds since 1970, as the card dates it.
        public var modified: Int64
        /// Read-only (a DCF card's protect: the FAT read-only attribute).
        public var readOnly: Bool

        public init(name: String, kind: Kind, bytes: Int64, modified: Int64, readOnly: Bool) {
            (self.name, self.kind, self.bytes, self.modified, self.readOnly) = (name, kind, bytes, modified, readOnly)
        }
    }

    public enum Kind: String, Sendable, Equatable {
        case jpeg, raw, movie
        /// A sidecar (THM, XMP, WAV…): kept with its item, shown by none.
        case other

        /// What a file's DCF extension holds.
        public init(extension fileExtension: String) {
            switch fileExtension.uppercased() {
            case "JPG", "JPEG": self = .jpeg
            case "DNG", "CR2", "CR3", "NEF", "NRW", "ARW", "RAF", "ORF", "RW2", "PEF", "SRW": self = .raw
            case "MP4", "MOV": self = .movie
            default: self = .other
            }
        }
    }

    /// The DCF folder ("100REFLX", "101CANON") and its number.
    public var folder: String
    public var folderNumber: Int
    /// The files' shared stem ("RFLX0042") and its number.
    public var stem: String
    public var number: Int
    /// The item's files, by name.
    public var files: [File]

    public init(folder: String, folderNumber: Int, stem: String, number: Int, files: [File]) {
        (self.folder, self.folderNumber, self.stem, self.number) = (folder, folderNumber, stem, number)
        self.files = files.sorted { $0.name < $1.name }
    }

    /// "100REFLX/RFLX0042".
    public var name: String { folder + "/" + stem }
    /// "100-0042": the folder's number and the file's, as cameras show them.
    public var shownNumber: String {
        let file = String(number)
        return "\(folderNumber)-" + String(repeating: "0", count: max(0, 4 - file.count)) + file
    }

    public func has(_ kind: Kind) -> Bool { files.contains { $0.kind == kind } }

    /// What review badges it: "RAW+JPEG", "JPEG", "RAW" or "MOVIE".
    public var format: String {
        if has(.movie) { return "MOVIE" }
        switch (has(.raw), has(.jpeg)) {
        case (true, true): return "RAW+JPEG"
        case (true, false): return "RAW"
        default: return "JPEG"
        }
    }

    /// Protected: one of its files is read-only (delete refuses the whole item).
    public var isProtected: Bool { files.contains { $0.readOnly } }

    /// When it was taken, as the card dates it: its newest file's time.
    public var modified: Int64 { files.map(\.modified).max() ?? 0 }

    /// Whether `a` comes before `b` in review: the newer number first, across folders (a
    /// folder's number before its files'; folders of one number by name).
    public static func isNewer(_ a: ReviewItem, than b: ReviewItem) -> Bool {
        if a.folderNumber != b.folderNumber { return a.folderNumber > b.folderNumber }
        if a.number != b.number { return a.number > b.number }
        return a.name > b.name
    }
}
