import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Protects a review item as cameras always have on DCF cards: each of its files read-only
/// (on FAT its read-only attribute, which every computer and camera honours; elsewhere its
/// write permissions), so that delete refuses it (`CardEraser`).
public enum CardProtection {
    public static func setProtected(_ item: ReviewItem, _ protect: Bool, onCardAt root: String) throws(SystemError) {
        let folder = PhotoCard(root: root).dcim + "/" + item.folder
        let onFAT = FATFile.isFAT(folder)
        for file in item.files {
            let path = folder + "/" + file.name
            let descriptor = try FileDescriptor(opening: path, O_RDONLY)
            if onFAT {
                try FATFile.set(FATFile.readOnly, protect, descriptor: descriptor.rawValue, path: path)
            } else {
                var info = stat()
                _ = try systemCall("fstat", path: path) { fstat(descriptor.rawValue, &info) }
                let mode = protect ? info.st_mode & ~0o222 : info.st_mode | 0o200
                _ = try systemCall("fchmod", path: path) { fchmod(descriptor.rawValue, mode & 0o7777) }
            }
            try descriptor.sync(path: path)
            try descriptor.close()
        }
        try AtomicFile.syncFolder(folder)
    }
}
