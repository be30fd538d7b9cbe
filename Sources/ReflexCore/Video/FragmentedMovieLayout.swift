/// What of an interrupted fragmented MP4 can be kept: its top-level boxes (`ftyp`, `moov`,
/// then a `moof` and its `mdat` a fragment) read in order until one runs past the end of the
/// file. The file is kept up to the end of the last whole fragment, and is worth keeping if
/// it has at least one (a power cut during the first second leaves nothing to play).
public struct FragmentedMovieLayout: Sendable, Equatable {
    /// One top-level box: its four-letter type and its size in bytes (header included).
    public struct Box: Sendable, Equatable {
        public let type: String
        public let size: Int64
        public init(_ type: String, size: Int64) { (self.type, self.size) = (type, size) }
    }

    /// The bytes to keep (0: nothing playable), and the whole fragments in them.
    public let playableBytes: Int64
    public let fragments: Int

    /// `boxes` as read from the start of a file of `fileSize` bytes (the reading may stop at
    /// the first box whose header or size runs past the end).
    public init(boxes: [Box], fileSize: Int64) {
        var offset: Int64 = 0, kept: Int64 = 0, fragments = 0
        var sawHeader = false, openFragment = false
        for box in boxes {
            // (Compared as what is left of the file: a size near Int64.max must not overflow.)
            guard box.size >= 8, box.size <= fileSize - offset else { break }
            offset += box.size
            switch box.type {
            case "moov": sawHeader = true
            case "moof": openFragment = true
            case "mdat" where openFragment && sawHeader:
                openFragment = false
                fragments += 1
                kept = offset
            case "mfra" where sawHeader && !openFragment: kept = offset  // the finished file's index
            default: break
            }
        }
        (playableBytes, self.fragments) = (fragments > 0 ? kept : 0, fragments)
    }
}
