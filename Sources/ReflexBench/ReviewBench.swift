import ArgumentParser
import CTurboJPEG
import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex bench review`: review's single view of a 12 MP photo the camera's encoder wrote —
/// the file read and decoded to the panel, upright (`ReviewPicture`) — beside TurboJPEG's
/// decode of the same file at the same scale alone, the floor any viewer pays.
struct ReviewBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review", abstract: "Benchmark review: a 12 MP photo from the card to the panel's picture.")

    @Option(help: "The photo's size, WIDTHxHEIGHT.") var size = "4056x3040"
    @Option(help: "The panel's size, WIDTHxHEIGHT.") var panel = "1280x800"
    @Option(help: "Runs of each case (the median is printed).") var runs = 9
    @Option(help: "Items on the card for the index (a fifth of them RAW+JPEG pairs).") var items = 1000
    @Option(help: "Thumbnails on the index's first screen.") var cells = 24

    func run() throws {
        let photo = size.lowercased().split(separator: "x").compactMap { Int($0) }
        let screen = panel.lowercased().split(separator: "x").compactMap { Int($0) }
        guard photo.count == 2, screen.count == 2, (photo + screen).allSatisfy({ $0 >= 16 }) else {
            throw ValidationError("--size and --panel are WIDTHxHEIGHT")
        }
        let jpeg = try Self.cameraJPEG(width: photo[0], height: photo[1])
        let folder = "/tmp/reflex-bench-review-\(getpid())"
        try AtomicFile.createFolder(folder)
        defer { _ = try? ChildProcess.runUntilLine(["/bin/rm", "-rf", folder], matching: nil, timeout: 30) }
        let path = folder + "/RFLX0001.JPG"
        try AtomicFile.write(jpeg, to: path)

        var shown: ReviewPicture?
        let review = try medianSeconds(runs) {
            // (Read with the size the card's listing gave: no larger buffer to clear.)
            guard let bytes = try AtomicFile.read(path, limit: jpeg.count) else { throw BenchError("the photo went missing") }
            shown = try ReviewPicture.jpeg(bytes, fitting: screen[0], screen[1])
        }
        let fit = PixelRect(x: 0, y: 0, width: screen[0], height: screen[1]).fitting(sourceWidth: photo[0], sourceHeight: photo[1])
        let (scaledWidth, scaledHeight) = ReviewPicture.decodedSize(width: photo[0], height: photo[1], atLeast: fit.width, fit.height)
        let decode = try medianSeconds(runs) { try Self.turboDecode(jpeg, width: scaledWidth, height: scaledHeight) }
        let whole = try medianSeconds(max(runs / 3, 1)) { try Self.turboDecode(jpeg, width: photo[0], height: photo[1]) }
        print("Review: a \(photo[0])x\(photo[1]) photo (\(jpeg.count / 1000) KB, the camera's JPEG encoder) on a "
              + "\(screen[0])x\(screen[1]) panel, median of \(runs)")
        print("  the file read, decoded at \(scaledWidth)x\(scaledHeight), fitted to \(shown?.width ?? 0)x\(shown?.height ?? 0) "
              + "and turned upright: \(milliseconds(review)) (target with the flip: the play key to the photo ≤ 150 ms)")
        print("  reference: TurboJPEG's decode of the same file at \(scaledWidth)x\(scaledHeight) alone \(milliseconds(decode)); "
              + "at its whole size \(milliseconds(whole))")
        try indexRow(jpeg: path, folder: folder)
    }

    /// The index opened on a card of `items` items (the photo linked under each name, so the
    /// card costs no space; its files are in the page cache, as a card just browsed is): the
    /// card listed (`CardCatalog`) and the first screen's thumbnails read from the files'
    /// first 64 KB (`EmbeddedThumbnail`), beside listing the folder alone.
    private func indexRow(jpeg: String, folder: String) throws {
        let card = folder + "/card", dcf = card + "/DCIM/100REFLX"
        try AtomicFile.createFolder(dcf)
        let dng = folder + "/RFLX0001.DNG"
        try AtomicFile.write([UInt8](repeating: 0, count: 1024), to: dng)
        for index in 1...min(max(items, 1), 9999) {
            let stem = dcf + "/" + PhotoNumber(folder: 100, file: index)!.fileStem
            guard link(jpeg, stem + ".JPG") == 0, index % 5 != 0 || link(dng, stem + ".DNG") == 0 else {
                throw BenchError("cannot link the card's files: \(String(cString: strerror(errno)))")
            }
        }
        var listed = 0, thumbnails = 0
        let open = try medianSeconds(runs) {
            let found = CardCatalog.items(onCardAt: card)
            listed = found.count
            thumbnails = 0
            for item in found.prefix(cells) {
                guard let file = item.files.first(where: { $0.kind == .jpeg }),
                      let prefix = try AtomicFile.read(dcf + "/" + file.name, limit: 65_535),
                      EmbeddedThumbnail.ofJPEG(prefix) != nil else { continue }
                thumbnails += 1
            }
        }
        let names = medianSeconds(runs) { _ = namesInFolder(dcf).count }
        print("  the index on a card of \(listed) items: listed and the first \(thumbnails) thumbnails read in "
              + "\(milliseconds(open)) (target ≤ 300 ms); reference: the folder's names alone \(milliseconds(names))")
    }

    /// A photo as the camera writes it: a picture with detail everywhere (so it compresses as
    /// a real one does), through the camera's JPEG encoder with its EXIF.
    static func cameraJPEG(width: Int, height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let texture = ((x / 3 + y / 5) % 7) * 9
                pixels[i] = UInt8(truncatingIfNeeded: 40 + x * 160 / width + texture)
                pixels[i + 1] = UInt8(truncatingIfNeeded: 60 + y * 120 / height + texture)
                pixels[i + 2] = UInt8(truncatingIfNeeded: 90 + (x ^ y) % 50)
            }
        }
        return try pixels.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), photo: PhotoFileBench.photo)
        }
    }

    static func turboDecode(_ jpeg: [UInt8], width: Int, height: Int) throws {
        guard let handle = tjInitDecompress() else { throw BenchError("cannot start TurboJPEG") }
        defer { tjDestroy(handle) }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        guard tjDecompress2(handle, jpeg, UInt(jpeg.count), &rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                            Int32(TJFLAG_FASTDCT)) == 0 else { throw BenchError("TurboJPEG cannot decode the photo") }
    }
}
