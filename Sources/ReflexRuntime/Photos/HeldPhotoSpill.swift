import ReflexCore
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The camera's own storage for photos that wait for the card (a full card, a pulled one):
/// past `limitBytes` of them in memory, the newest go to `folder`, each file written
/// atomically as `<pid>-<press>.<EXT>`, and come back when the card takes them. What is there
/// when the camera starts (it was killed, or the power went, while photos waited) is queued
/// again, oldest first: a photo held is never lost with the process.
public struct HeldPhotoSpill: Sendable {
    public let folder: String
    public let limitBytes: Int

    public init(folder: String, limitBytes: Int) {
        self.folder = folder
        self.limitBytes = limitBytes
    }

    /// Moves files of the newest held photos out of memory until what stays is within the
    /// limit (the oldest stays: it is the next to be written), or, with `everything` (the
    /// card cannot take them: they may wait long), all of them, so that neither a kill nor a
    /// power cut loses one. Returns how many files were moved.
    @discardableResult
    func spill(_ held: [HeldPhoto], everything: Bool = false, log: (String) -> Void) -> Int {
        var inMemory = held.reduce(0) { $0 + $1.bytesInMemory }
        let limit = everything ? 0 : limitBytes
        guard inMemory > limit else { return 0 }
        var moved = 0
        for photo in (everything ? held[...] : held.dropFirst()).reversed() where inMemory > limit {
            for index in photo.files.indices {
                guard case .memory(let bytes) = photo.files[index].content else { continue }
                let path = folder + "/\(getpid())-\(photo.pressNumber).\(photo.files[index].extension)"
                do throws(SystemError) {
                    try AtomicFile.createFolder(folder)
                    try AtomicFile.write(bytes, to: path)
                } catch {
                    log("photos: photo \(photo.pressNumber) stays in memory: cannot spill it (\(error))")
                    return moved
                }
                photo.markSpilled(file: index, to: path)
                inMemory -= bytes.count
                moved += 1
            }
        }
        return moved
    }

    /// A photo saved or discarded: its spilled files go.
    func remove(_ photo: HeldPhoto) {
        let paths = photo.spilledPaths
        guard !paths.isEmpty else { return }
        for path in paths { unlink(path) }
        try? AtomicFile.syncFolder(folder)
    }

    /// The photos left here by an earlier run, oldest first, as held photos to save.
    func recover() -> [HeldPhoto] {
        _ = AtomicFile.removeAbandonedTemporaries(in: folder)
        var groups: [String: [(extension: String, path: String, size: Int)]] = [:]
        for name in namesInFolder(folder) where !name.hasPrefix(".") {
            guard let dot = name.lastIndex(of: "."), name[..<dot].split(separator: "-").count == 2 else { continue }
            var info = stat()
            guard stat(folder + "/" + name, &info) == 0, info.st_size > 0 else { continue }
            groups[String(name[..<dot]), default: []].append((String(name[name.index(after: dot)...]), folder + "/" + name,
                                                             Int(info.st_size)))
        }
        // Oldest first: by the process, then the press (numbers, not text: 10 after 9).
        let stems = groups.keys.sorted { a, b in
            let x = a.split(separator: "-").compactMap { Int($0) }, y = b.split(separator: "-").compactMap { Int($0) }
            return x.lexicographicallyPrecedes(y)
        }
        return stems.enumerated().map { index, stem in
            // The DNG first, as a photo's files are written.
            let files = groups[stem]!.sorted { $0.extension == "DNG" && $1.extension != "DNG" }
            let extensions = Set(files.map(\.extension))
            let format: CaptureFormat = extensions == ["DNG", "JPG"] ? .rawPlusJPEG : extensions.contains("DNG") ? .raw : .jpeg
            return HeldPhoto(pressNumber: -(index + 1), format: format,
                             result: PhotoResult(ticket: nil, sequence: 0, framesLate: 0, exposureSeconds: 0, iso: 0),
                             files: files.map { ($0.extension, .spilled(path: $0.path, byteCount: $0.size)) })
        }
    }
}
