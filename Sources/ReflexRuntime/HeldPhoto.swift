import ReflexCore

/// A developed photo on its way to the card: its files' bytes, kept until every one is
/// written (a retry writes these same bytes), with what is known of the press for its result.
final class HeldPhoto {
    let pressNumber: Int
    let format: CaptureFormat
    var result: PhotoResult
    /// Each file's extension and bytes, the DNG first.
    let files: [(extension: String, bytes: [UInt8])]
    let thumbnail: [UInt8]
    let thumbnailWidth: Int
    let thumbnailHeight: Int
    /// The frame it came from, and how late that frame was against the press.
    let sequence: UInt32
    let framesLate: Int
    /// Its number, once given (kept across retries: a number is never used twice).
    var number: PhotoNumber?
    /// The files already on the card (a pair cut short by a full card keeps its DNG there
    /// until the JPEG follows, or the photo is discarded).
    var writtenPaths: [String] = []

    init(pressNumber: Int, format: CaptureFormat, result: PhotoResult, developed: PhotoDeveloper.Developed,
         sequence: UInt32, framesLate: Int) {
        self.sequence = sequence
        self.framesLate = framesLate
        self.pressNumber = pressNumber
        self.format = format
        self.result = result
        files = developed.files
        thumbnail = developed.thumbnail
        thumbnailWidth = developed.thumbnailWidth
        thumbnailHeight = developed.thumbnailHeight
    }

    var byteCount: Int { files.reduce(0) { $0 + $1.bytes.count } }
}
