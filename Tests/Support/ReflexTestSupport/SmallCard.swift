import Foundation
import ReflexHardware
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// A card of a few megabytes, mounted for one test, so ENOSPC and a cut's leftovers come from
/// a real file system: a FAT image made by mkfs.vfat and loop-mounted — the file system
/// cameras' cards carry, with FAT's own way of committing a file (the hidden attribute) —
/// where the kernel has FAT; a tmpfs where it has not (this CI machine's kernel has no FAT:
/// the QEMU scenarios run the same stories on the board's FAT card). Mounting needs root, as
/// CI has.
public final class SmallCard {
    public let path: String
    private let parent = TemporaryFolder()

    public init(kilobytes: Int) throws {
        path = parent.path + "/card"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard getuid() == 0 else { throw SmallCardError("mounting a small file system needs root (CI runs as root)") }
        if Self.kernelHasFAT {
            let image = parent.path + "/card.img"
            // 4 KB clusters, so a size rounds as the tests reckon it.
            guard Self.run("/sbin/mkfs.vfat", ["-C", "-s", "8", "-n", "SMALLCARD", image, String(kilobytes)]) else {
                throw SmallCardError("mkfs.vfat (dosfstools) cannot make a \(kilobytes) KB FAT image")
            }
            guard Self.run("/bin/mount", ["-t", "vfat", "-o", "loop", image, path]), FATFile.isFAT(path) else {
                throw SmallCardError("cannot loop-mount the \(kilobytes) KB FAT image at \(path)")
            }
        } else {
            guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "reflex-card", path]) else {
                throw SmallCardError("cannot mount a \(kilobytes) KB tmpfs at \(path)")
            }
        }
    }

    /// Whether this kernel mounts FAT (built in, or its module loaded now).
    public static var kernelHasFAT: Bool { kernelHas("vfat") }

    /// Whether this kernel mounts `name` (built in, or its module loaded now).
    static func kernelHas(_ name: String) -> Bool {
        func listed() -> Bool {
            ((try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? "").contains("\t\(name)\n")
        }
        if listed() { return true }
        _ = run("/sbin/modprobe", ["-q", name])
        return listed()
    }

    /// Mounted read-only, as a card's lock switch or the kernel's remount after an error
    /// leaves it (false: writable again).
    public func remount(readOnly: Bool) throws {
        guard Self.run("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path]) else {
            throw SmallCardError("cannot remount the card at \(path) " + (readOnly ? "read-only" : "writable"))
        }
    }

    deinit { _ = Self.run("/bin/umount", [path]) }

    public var isFAT: Bool { FATFile.isFAT(path) }

    public var freeBytes: Int64 { StorageProbe.freeBytes(at: path, requireMountPoint: false) ?? 0 }

    /// Takes space until only `bytesLeft` remain (in the file system's pages).
    public func fill(leaving bytesLeft: Int64) throws {
        let size = Int(freeBytes - bytesLeft)
        guard size > 0 else { throw SmallCardError("less than \(bytesLeft) bytes free already") }
        try Data(count: size).write(to: URL(fileURLWithPath: path + "/filler"))
    }

    public func freeFiller() { unlink(path + "/filler") }

    /// The names in the photos' folder (hidden ones too).
    public var photos: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path + "/DCIM/100REFLX")) ?? []).sorted() }

    private static func run(_ program: String, _ arguments: [String]) -> Bool {
        (try? ProgramRun(executable: URL(fileURLWithPath: program), arguments))?.status == 0
    }
}

/// Why a small card could not be made.
public struct SmallCardError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
