import CFuzzerDriver
import Glibc
import ReflexCore
import ReflexStorage

/// What the camera reads of a card's structure: a movie cut by a power cut, walked box by
/// box to keep its whole fragments, and the names another camera or a computer left in the
/// card's folders.
extension FuzzTarget {
    static let cardTargets: [FuzzTarget] = [
        FuzzTarget("mp4-recovery", "a movie left by a power cut, its boxes walked (MovieFile.topLevelBoxes)",
                   longestInput: 4096) { bytes in
            let file = reflex_fuzz_memory_file()
            precondition(file >= 0, "memfd_create: \(errno)")
            defer { close(file) }
            precondition(bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == bytes.count)
            let boxes = MovieFile.topLevelBoxes(of: file, size: Int64(bytes.count))
            let layout = FragmentedMovieLayout(boxes: boxes, fileSize: Int64(bytes.count))
            precondition(layout.playableBytes >= 0 && layout.playableBytes <= Int64(bytes.count),
                         "keeps \(layout.playableBytes) of \(bytes.count) bytes")
        },
        FuzzTarget("card-names", "a card's folders and file names (ReviewCatalog, DCFName)", longestInput: 4096) { bytes in
            // A line a file: "folder/name size"; the listing the catalog is made from.
            var folders: [String: [(name: String, bytes: Int64, modified: Int64, readOnly: Bool)]] = [:]
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard let first = parts.first else { continue }
                let path = first.split(separator: "/", maxSplits: 1)
                guard path.count == 2 else { continue }
                let size = parts.count > 1 ? Int64(parts[1]) ?? 0 : 0
                folders[String(path[0]), default: []].append((String(path[1]), size, Int64(folders.count), size < 0))
                _ = DCFName.folderNumber(String(path[0]))
                _ = DCFName.file(String(path[1]))
            }
            let listings = folders.keys.sorted().map { ReviewCatalog.Listing(folder: $0, files: folders[$0]!) }
            _ = ReviewCatalog.items(listings)
        },
    ]
}
