import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes on a FAT card that survive a power cut at any instant. On FAT a rename
/// is not the atomic step it is on ext4: Linux's vfat writes the new name's directory entry,
/// then marks the old one deleted, and a cut between leaves two entries sharing one cluster
/// chain, which no unlink can undo (freeing either frees the other's data). So nothing is
/// renamed. The file is made under its final name, hidden by FAT's own attribute before a
/// byte is written, then written and fsynced (data, cluster chain and the hidden entry with
/// its size), then shown and fsynced again. What a cut can leave on the card:
///
/// - nothing, or the new entry with size 0 (the cut came before the first fsync);
/// - the hidden entry with its data (before the second);
/// - the whole file, shown: the one step that shows it rewrites one 32-byte directory
///   entry, inside one sector, which a card writes whole or not at all.
///
/// `isLeftover` recognises the first two; the card's check at start removes them.
public enum FATFile {
    /// statfs's f_type for FAT12/16/32 (vfat, msdos).
    static let fatMagic = 0x4d44
    /// FAT's read-only, hidden and system attributes, and the vfat ioctls that read and set a
    /// file's attributes. Read-only is a DCF card's protect; system marks a file being deleted
    /// (`CardEraser`), which no camera sets on a photo.
    static let readOnly: UInt32 = 0x01
    static let hidden: UInt32 = 0x02
    static let system: UInt32 = 0x04
    static let getAttributes = UInt(0x8004_7210)  // FAT_IOCTL_GET_ATTRIBUTES = _IOR('r', 0x10, __u32)
    static let setAttributes = UInt(0x4004_7211)  // FAT_IOCTL_SET_ATTRIBUTES = _IOW('r', 0x11, __u32)

    /// True when `folder` is on a FAT file system.
    public static func isFAT(_ folder: String) -> Bool {
        fileSystemType(folder) == fatMagic
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let file = try FileDescriptor(opening: path, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644)
        do throws(SystemError) {
            try setHidden(file.rawValue, true, path: path)
            try bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    if let base = buffer.baseAddress { try file.writeAll(base, count: buffer.count, path: path) }
                }
            }.get()
            try file.sync(path: path)
            try setHidden(file.rawValue, false, path: path)
            try file.sync(path: path)
            try file.close()
        } catch {
            unlink(path)
            throw error
        }
    }

    /// What a cut left of a write: a hidden file, or an empty one (nil: not there, or not on FAT).
    public static func isLeftover(_ path: String) -> Bool? {
        guard let attributes = attributes(path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return attributes & hidden != 0 || info.st_size == 0
    }

    static func setHidden(_ descriptor: Int32, _ hide: Bool, path: String) throws(SystemError) {
        try set(hidden, hide, descriptor: descriptor, path: path)
    }

    /// Sets (`on`) or clears `attribute` of the open file `descriptor`.
    static func set(_ attribute: UInt32, _ on: Bool, descriptor: Int32, path: String) throws(SystemError) {
        var attributes: UInt32 = 0
        _ = try systemCall("FAT_IOCTL_GET_ATTRIBUTES", path: path) { ioctl(descriptor, getAttributes, &attributes) }
        attributes = on ? attributes | attribute : attributes & ~attribute
        _ = try systemCall("FAT_IOCTL_SET_ATTRIBUTES", path: path) { ioctl(descriptor, setAttributes, &attributes) }
    }

    /// The file's FAT attributes (nil: not there, or not on FAT).
    static func attributes(_ path: String) -> UInt32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var attributes: UInt32 = 0
        return ioctl(descriptor, getAttributes, &attributes) == 0 ? attributes : nil
    }
}
