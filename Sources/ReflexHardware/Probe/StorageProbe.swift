#if canImport(Glibc)
import Glibc
#endif

/// The storage card as the file system shows it.
public enum StorageProbe {
    /// Free bytes (for an unprivileged writer) in `folder`, or nil when there is no card:
    /// the folder is missing, or (with `requireMountPoint`, as for a card slot's mount point
    /// like /media/card) nothing is mounted on it.
    /// Whether the file system holding `folder` is mounted read-only (where `freeBytes` says 0).
    public static func isReadOnly(at folder: String) -> Bool {
        var fs = statvfs()
        return statvfs(folder, &fs) == 0 && fs.f_flag & UInt(ST_RDONLY) != 0
    }

    public static func freeBytes(at folder: String, requireMountPoint: Bool) -> Int64? {
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0, (folderInfo.st_mode & S_IFMT) == S_IFDIR else { return nil }
        if requireMountPoint {
            var parentInfo = stat()
            guard stat(folder + "/..", &parentInfo) == 0 else { return nil }
            // A mount point is on another device than its parent (or is the parent itself: /).
            guard folderInfo.st_dev != parentInfo.st_dev || folderInfo.st_ino == parentInfo.st_ino else { return nil }
        }
        var fs = statvfs()
        guard statvfs(folder, &fs) == 0 else { return nil }
        // A card remounted read-only (after errors) takes no more pictures.
        if fs.f_flag & UInt(ST_RDONLY) != 0 { return 0 }
        return Int64(fs.f_bavail) * Int64(fs.f_frsize)
    }
}
