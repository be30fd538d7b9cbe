import ReflexCore
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A developed photo on its way to the card: its files' bytes, kept until every one is
/// written (a retry writes these same bytes), in memory or, when memory is short, spilled to
/// the camera's own storage (`HeldPhotoSpill`), with what is known of the press.
final class HeldPhoto {
    /// Where a file's bytes are while the photo waits.
    enum Content {
        case memory([UInt8])
        case spilled(path: String, byteCount: Int)
    }

    let pressNumber: Int
    let format: CaptureFormat
    var result: PhotoResult
    /// Each file's extension and content, the DNG first.
    private(set) var files: [(extension: String, content: Content)]
    let thumbnail: [UInt8]
    let thumbnailWidth: Int
    let thumbnailHeight: Int
    /// The frame it came from, and how late that frame was against the press.
    let sequence: UInt32
    let framesLate: Int
    /// The frames merged into its raw (Enhanced RAW; 1: the frame as taken).
    let framesMerged: Int
    /// Its number, once given (kept across retries: a number is never used twice).
    var number: PhotoNumber?
    /// The files already on the card (a pair cut short by a full card keeps its DNG there
    /// until the JPEG follows, or the photo is discarded).
    var writtenPaths: [String] = []

    init(pressNumber: Int, format: CaptureFormat, result: PhotoResult, files: [(extension: String, content: Content)],
         thumbnail: [UInt8] = [], thumbnailWidth: Int = 0, thumbnailHeight: Int = 0, sequence: UInt32 = 0,
         framesLate: Int = 0, framesMerged: Int = 1) {
        self.pressNumber = pressNumber
        self.format = format
        self.result = result
        self.files = files
        self.thumbnail = thumbnail
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
        self.sequence = sequence
        self.framesLate = framesLate
        self.framesMerged = framesMerged
    }

    /// Bytes held in memory (spilled files count nothing).
    var bytesInMemory: Int {
        files.reduce(0) { total, file in
            if case .memory(let bytes) = file.content { return total + bytes.count }
            return total
        }
    }

    func byteCount(ofFile index: Int) -> Int {
        switch files[index].content {
        case .memory(let bytes): bytes.count
        case .spilled(_, let count): count
        }
    }

    /// A file's bytes, read back if spilled.
    func bytes(ofFile index: Int) throws(SystemError) -> [UInt8] {
        switch files[index].content {
        case .memory(let bytes): return bytes
        case .spilled(let path, let count):
            guard let bytes = try AtomicFile.read(path, limit: count), bytes.count == count else {
                throw SystemError("read back", path: path, code: EIO)
            }
            return bytes
        }
    }

    /// The spilled files' paths (removed once the photo is saved or discarded).
    var spilledPaths: [String] {
        files.compactMap { if case .spilled(let path, _) = $0.content { path } else { nil } }
    }

    func markSpilled(file index: Int, to path: String) {
        files[index].content = .spilled(path: path, byteCount: byteCount(ofFile: index))
    }
}
