import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Deletes a review item's files (both of a RAW+JPEG pair) so that a power cut at any moment
/// leaves the whole item or none of it: every file is first marked as being deleted, each
/// mark one atomic step (on FAT the hidden and system attributes, one 32-byte directory entry;
/// elsewhere a rename to a hidden name), and only then removed. The card's check at start
/// (`finishInterrupted`) removes a marked file together with every file of its stem, so half
/// an item marked is a whole item deleted. What a cut inside an unlink leaves in the FAT
/// itself (a lost cluster) is the card unit's `fsck -a`'s to repair before it mounts.
/// A protected item (`CardProtection`) is refused. Numbers are never reused: the next photo's
/// comes from the counter kept with the settings, which a delete does not move back.
public enum CardEraser {
    /// The hidden name a file being deleted has on a card that renames atomically.
    static func markedName(_ name: String) -> String { "." + name + ".deleting" }

    /// The name a marked file had ("RFLX0002.JPG"), nil for any other name.
    static func unmarkedName(_ name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".deleting") else { return nil }
        return String(name.dropFirst().dropLast(".deleting".count))
    }

    /// `goingOn`: asked after each step (each file marked, the folder synced, each file
    /// removed, the folder synced) whether to go on; false stops there, as a kill would (the
    /// tests cut a delete at every step with it).
    public static func delete(_ item: ReviewItem, onCardAt root: String,
                              goingOn: (Int) -> Bool = { _ in true }) throws(SystemError) {
        guard !item.isProtected else { throw SystemError("delete: \(item.name) is protected", path: item.name, code: EPERM) }
        let folder = PhotoCard(root: root).dcim + "/" + item.folder
        let onFAT = FATFile.isFAT(folder)
        var marked: [String] = []
        for file in item.files {
            let path = folder + "/" + file.name
            if onFAT {
                let descriptor = try FileDescriptor(opening: path, O_RDONLY)
                try FATFile.set(FATFile.hidden | FATFile.system, true, descriptor: descriptor.rawValue, path: path)
                try descriptor.sync(path: path)
                try descriptor.close()
                marked.append(path)
            } else {
                let hidden = folder + "/" + markedName(file.name)
                _ = try systemCall("rename", path: path) { rename(path, hidden) }
                marked.append(hidden)
            }
            guard goingOn(marked.count) else { return }
        }
        try AtomicFile.syncFolder(folder)
        var step = marked.count + 1
        guard goingOn(step) else { return }
        for path in marked {
            if unlink(path) != 0 && errno != ENOENT { throw SystemError("unlink", path: path) }
            step += 1
            guard goingOn(step) else { return }
        }
        try AtomicFile.syncFolder(folder)
    }

    /// Deletes one file of an item and leaves its other files (a computer deleting a RAW+JPEG
    /// pair's JPEG over USB, where each is an object of its own). One unlink is one step a
    /// cut cannot halve, so it is not marked first (a mark would take the whole stem with it
    /// at the next start); the folder is synced after. A protected file is refused.
    public static func deleteFile(_ file: ReviewItem.File, of item: ReviewItem, onCardAt root: String) throws(SystemError) {
        guard !file.readOnly else { throw SystemError("delete: \(file.name) is protected", path: file.name, code: EPERM) }
        let folder = PhotoCard(root: root).dcim + "/" + item.folder
        let path = folder + "/" + file.name
        _ = try systemCall("unlink", path: path) { unlink(path) }
        try AtomicFile.syncFolder(folder)
    }

    /// Finishes what a cut interrupted: in every DCF folder, each file marked as being
    /// deleted is removed with every file of its stem. Returns the files removed.
    @discardableResult
    public static func finishInterrupted(onCardAt root: String) -> Int {
        let dcim = PhotoCard(root: root).dcim
        var removed = 0
        for folderName in namesInFolder(dcim) where DCFName.folderNumber(folderName) != nil {
            let folder = dcim + "/" + folderName
            let names = namesInFolder(folder)
            let onFAT = FATFile.isFAT(folder)
            let stems = Set(names.compactMap { name -> String? in
                let original = onFAT ? (isMarkedOnFAT(folder + "/" + name) ? name : nil) : unmarkedName(name)
                return original.flatMap { DCFName.file($0)?.stem }
            })
            guard !stems.isEmpty else { continue }
            for name in names {
                guard let stem = DCFName.file(unmarkedName(name) ?? name)?.stem, stems.contains(stem) else { continue }
                if unlink(folder + "/" + name) == 0 { removed += 1 }
            }
            try? AtomicFile.syncFolder(folder)
        }
        return removed
    }

    /// Both marks, hidden and system: another camera's file with one of them (a hidden
    /// thumbnail) is not taken for a delete.
    private static func isMarkedOnFAT(_ path: String) -> Bool {
        let marks = FATFile.hidden | FATFile.system
        return FATFile.attributes(path).map { $0 & marks == marks } ?? false
    }
}
