import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem
import ReflexUI

/// Reads one review item from the card for the single view: its picture fitted to the panel
/// (the JPEG of a pair, else the DNG's raw developed, else a movie's first frame) and what the
/// overlay says of it, from its own EXIF. A file that cannot be read or decoded is not an
/// error to the camera: the item comes back without a picture, with the reason.
enum ReviewLoader {
    /// A JPEG larger than this is refused rather than read (no camera writes one; a damaged
    /// directory entry may claim anything).
    static let largestJPEG: Int64 = 64 << 20
    /// EXIF comes first in a JPEG and in our DNGs' first directory: this much is read for it.
    static let headerBytes = 65_536
    /// A DNG's first directory and its preview (256×192 RGB in ours, after the directories).
    static let rawHeaderBytes = 512 << 10
    /// A raw file larger than this is refused rather than read (a 100 MP sensor's uncompressed
    /// DNG is 200 MB).
    static let largestRaw: Int64 = 256 << 20

    struct Loaded {
        var picture: ReviewPicture?
        var taken: String?
        var exposure: String?
        var hasLocation = false
        var problem: String?
        /// What went wrong, for the log.
        var detail: String?
    }

    static func load(_ item: ReviewItem, card: String, panelWidth: Int, panelHeight: Int) -> Loaded {
        let folder = PhotoCard(root: card).dcim + "/" + item.folder
        var loaded = Loaded()
        do {
            if let jpeg = item.files.first(where: { $0.kind == .jpeg }) {
                // (Read at the size the card's listing gave: no larger buffer to clear.)
                guard jpeg.bytes <= largestJPEG else { throw ReviewPicture.Failure(description: "\(jpeg.name) is too large") }
                guard let bytes = try AtomicFile.read(folder + "/" + jpeg.name, limit: Int(jpeg.bytes)) else {
                    throw ReviewPicture.Failure(description: "\(jpeg.name) is gone")
                }
                describe(ReviewPhotoInfo.ofJPEG(Array(bytes.prefix(headerBytes))), into: &loaded)
                loaded.picture = try ReviewPicture.jpeg(bytes, fitting: panelWidth, panelHeight)
            } else if let raw = item.files.first(where: { $0.kind == .raw }) {
                guard raw.bytes <= largestRaw, let bytes = try AtomicFile.read(folder + "/" + raw.name, limit: Int(raw.bytes)) else {
                    throw ReviewPicture.Failure(description: "\(raw.name) is gone or too large")
                }
                describe(ReviewPhotoInfo.ofDNG(bytes), into: &loaded)
                do {
                    loaded.picture = ReviewPicture.raw(try DNGRaw.read(bytes), fitting: panelWidth, panelHeight)
                } catch {
                    // Another camera's raw we cannot develop: its own preview, said in the log.
                    guard let preview = EmbeddedThumbnail.ofDNG(bytes) else {
                        throw ReviewPicture.Failure(description: "\(raw.name): \(error), and it has no preview")
                    }
                    loaded.detail = "\(raw.name): \(error); its preview is shown"
                    loaded.picture = ReviewPicture.rgb(preview.rgb, width: preview.width, height: preview.height,
                                                       fitting: panelWidth, panelHeight)
                }
            } else if let movie = item.files.first(where: { $0.kind == .movie }) {
                loaded.taken = LocalTime.text(movie.modified)
                loaded.picture = try ReviewPicture.movie(path: folder + "/" + movie.name, fitting: panelWidth, panelHeight)
            }
        } catch {
            loaded.problem = InterfaceText.cannotShowFile
            loaded.detail = "\(error)"
        }
        if loaded.taken == nil { loaded.taken = LocalTime.text(item.modified) }
        return loaded
    }

    /// `item`'s small picture for the index, fitted to a cell of `width` × `height` and upright:
    /// a JPEG's EXIF thumbnail (or, without one, the JPEG decoded at an eighth), a RAW's DNG
    /// preview, a movie's first frame; nil when there is none to read.
    static func thumbnail(_ item: ReviewItem, card: String, width: Int, height: Int) -> ReviewPicture? {
        let folder = PhotoCard(root: card).dcim + "/" + item.folder
        if let jpeg = item.files.first(where: { $0.kind == .jpeg }) {
            let path = folder + "/" + jpeg.name
            guard let prefix = try? AtomicFile.read(path, limit: headerBytes) else { return nil }
            if let small = EmbeddedThumbnail.ofJPEG(prefix) {
                return ReviewPicture.rgb(small.rgb, width: small.width, height: small.height, fitting: width, height,
                                         orientation: ExifOrientationReader.orientation(ofJPEG: prefix) ?? .upright)
            }
            guard jpeg.bytes <= largestJPEG, let whole = try? AtomicFile.read(path, limit: Int(jpeg.bytes)) else { return nil }
            return try? ReviewPicture.jpeg(whole, fitting: width, height)
        }
        if let raw = item.files.first(where: { $0.kind == .raw }) {
            guard let header = try? AtomicFile.read(folder + "/" + raw.name, limit: rawHeaderBytes),
                  let preview = EmbeddedThumbnail.ofDNG(header) else { return nil }
            return ReviewPicture.rgb(preview.rgb, width: preview.width, height: preview.height, fitting: width, height)
        }
        if let movie = item.files.first(where: { $0.kind == .movie }) {
            return try? ReviewPicture.movie(path: folder + "/" + movie.name, fitting: width, height)
        }
        return nil
    }

    /// `item`'s JPEG decoded again at the detail `zoom` (screen pixels per file pixel) needs,
    /// or a RAW alone developed whole by the still pipeline; nil for a movie.
    static func detail(_ item: ReviewItem, card: String, zoom: Double) throws -> ReviewDetail? {
        let folder = PhotoCard(root: card).dcim + "/" + item.folder
        if let jpeg = item.files.first(where: { $0.kind == .jpeg }) {
            guard jpeg.bytes <= largestJPEG, let bytes = try AtomicFile.read(folder + "/" + jpeg.name, limit: Int(jpeg.bytes)) else {
                throw ReviewPicture.Failure(description: "\(jpeg.name) is gone or too large")
            }
            return try ReviewDetail.jpeg(bytes, forZoom: zoom)
        }
        guard let raw = item.files.first(where: { $0.kind == .raw }) else { return nil }
        guard raw.bytes <= largestRaw, let bytes = try AtomicFile.read(folder + "/" + raw.name, limit: Int(raw.bytes)) else {
            throw ReviewPicture.Failure(description: "\(raw.name) is gone or too large")
        }
        return ReviewDetail.raw(try DNGRaw.read(bytes))
    }

    private static func describe(_ info: ReviewPhotoInfo?, into loaded: inout Loaded) {
        guard let info else { return }
        loaded.taken = info.taken.map(InterfaceText.reviewDate)
        loaded.exposure = InterfaceText.reviewExposure(iso: info.iso, seconds: info.exposureSeconds, fNumber: info.fNumber,
                                                       bias: info.exposureBias)
        loaded.hasLocation = info.hasLocation
    }
}
