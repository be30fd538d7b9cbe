import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The storage card as the camera writes photos to it, in the DCF layout every camera and
/// computer knows: `DCIM/100REFLX/RFLX0001.JPG` and `.DNG`. Each file is written whole to a
/// hidden temporary name, fsynced, renamed and its folder fsynced (`AtomicFile`), or on a
/// FAT card written hidden under its own name and then shown (`FATFile`): a photo on the
/// card is complete or absent, never half there, whenever the power goes.
public struct PhotoCard: Sendable {
    /// Where the card is mounted.
    public let root: String

    public init(root: String) { self.root = root }

    public var dcim: String { root + "/DCIM" }

    public func folder(for number: PhotoNumber) -> String { dcim + "/" + number.folderName }

    public func path(for number: PhotoNumber, extension fileExtension: String) -> String {
        folder(for: number) + "/" + number.fileStem + "." + fileExtension
    }

    /// The highest number any photo of ours on the card has (nil: none).
    public func highestNumber() -> PhotoNumber? {
        var highest: PhotoNumber?
        for folderName in namesInFolder(dcim) {
            guard let folderNumber = PhotoNumber.folder(named: folderName) else { continue }
            for name in namesInFolder(dcim + "/" + folderName) {
                guard let file = PhotoNumber.file(named: name), let number = PhotoNumber(folder: folderNumber, file: file)
                else { continue }
                highest = max(highest ?? number, number)
            }
        }
        return highest
    }

    /// Writes one photo's files (a RAW+JPEG pair shares the number), each atomically; returns
    /// their paths. A file already there under that name is never overwritten.
    public func save(_ files: [(extension: String, bytes: [UInt8])], as number: PhotoNumber) throws(SystemError) -> [String] {
        var paths: [String] = []
        for file in files { paths.append(try save(file.bytes, extension: file.extension, as: number)) }
        return paths
    }

    /// Writes one file of a photo atomically; its path.
    public func save(_ bytes: [UInt8], extension fileExtension: String, as number: PhotoNumber) throws(SystemError) -> String {
        let folder = folder(for: number)
        try AtomicFile.createFolder(folder)
        let path = path(for: number, extension: fileExtension)
        if access(path, F_OK) == 0 { throw SystemError("save", path: path, code: EEXIST) }
        // A FAT card cannot rename atomically: its files are shown, not renamed (FATFile).
        if FATFile.isFAT(folder) { try FATFile.write(bytes, to: path) } else { try AtomicFile.write(bytes, to: path) }
        return path
    }

    /// Takes a photo's files off the card (a discarded pair's first half), durably.
    public func remove(_ paths: [String]) {
        for path in paths { unlink(path) }
        if let folder = paths.first.map({ String($0[..<($0.lastIndex(of: "/") ?? $0.endIndex)]) }) {
            try? AtomicFile.syncFolder(folder)
        }
    }

    /// What the card's check at start found: unfinished saves removed, interrupted movies
    /// kept up to their last whole fragment.
    public struct Leftovers: Sendable, Equatable {
        public var removed = 0
        public var moviesRecovered: [String] = []
    }

    /// Removes what a writer killed mid-save, or a power cut, left in our folders: hidden
    /// temporary files (ext4 and the like), and on FAT our photos still hidden or empty
    /// (`FATFile`). A movie a cut interrupted is shown instead, cut to its last whole fragment
    /// (`MovieFile`), or removed when it has none.
    @discardableResult
    public func removeLeftovers() -> Leftovers {
        var found = Leftovers()
        // First the deletes a cut interrupted, whole (a half-marked pair's hidden file would
        // otherwise pass for an unfinished save below, and its partner stay).
        found.removed += CardEraser.finishInterrupted(onCardAt: root)
        for folderName in namesInFolder(dcim) where PhotoNumber.folder(named: folderName) != nil {
            let folder = dcim + "/" + folderName
            found.removed += AtomicFile.removeAbandonedTemporaries(in: folder).count
            let onFAT = FATFile.isFAT(folder)
            var changed = false
            for name in namesInFolder(folder) {
                let path = folder + "/" + name
                if !onFAT, MovieFile.isRecordingName(name) {
                    let shown = folder + "/" + name.dropFirst().dropLast(MovieFile.temporarySuffix.count)
                    switch MovieFile.recover(writingPath: path, as: shown, onFAT: false) {
                    case .kept: found.moviesRecovered.append(shown)
                    case .removed: found.removed += 1
                    case .failed: break
                    }
                    changed = true
                } else if onFAT, PhotoNumber.file(named: name) != nil, FATFile.isLeftover(path) == true {
                    if name.uppercased().hasSuffix("." + MovieFile.fileExtension) {
                        switch MovieFile.recover(writingPath: path, as: path, onFAT: true) {
                        case .kept: found.moviesRecovered.append(path)
                        case .removed: found.removed += 1
                        case .failed: break
                        }
                    } else if unlink(path) == 0 || errno == ENOENT {
                        found.removed += 1
                    }
                    changed = true
                }
            }
            if changed { try? AtomicFile.syncFolder(folder) }
        }
        return found
    }
}
