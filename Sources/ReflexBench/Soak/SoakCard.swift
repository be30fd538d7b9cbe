import ReflexCore
import ReflexHardware
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The soak's card: a tmpfs of a card's size mounted for the run (as root), so that filling
/// it is quick and its free space real; otherwise the folder given, which is then never
/// filled. Its finished files are read back by other programs and deleted between cycles.
final class SoakCard {
    let folder: String
    /// The run mounted the tmpfs (and unmounts it at the end).
    let mounted: Bool
    private let ballast: String
    private(set) var filled = false
    /// Files read back whole, and those a reader refused (with why).
    private(set) var checked: [String: Int] = [:]
    private(set) var refused: [String] = []
    /// Files already on a given card when the run began: the photographer's own, never read
    /// back or deleted by the soak.
    private let foundAtStart: Set<String>

    /// `folder`: the given card (nil: a tmpfs of `megabytes` in /tmp, if this process may mount).
    init(folder given: String?, megabytes: Int) throws {
        if let given {
            try AtomicFile.createFolder(given)
            (folder, mounted) = (given, false)
        } else {
            let path = "/tmp/reflex-soak-card-\(getpid())"
            try AtomicFile.createFolder(path)
            let mountedNow = mount("reflex-soak", path, "tmpfs", 0, "size=\(megabytes)m,mode=0755") == 0
            (folder, mounted) = (path, mountedNow)
        }
        ballast = folder + "/ballast.bin"
        foundAtStart = Set(SoakCard.filesInDCIM(of: folder))
    }

    /// Every finished file in the card's DCIM folders (hidden ones are still being written).
    private static func filesInDCIM(of card: String) -> [String] {
        namesInFolder(card + "/DCIM").sorted().flatMap { folder in
            namesInFolder(card + "/DCIM/" + folder).sorted()
                .filter { !$0.hasPrefix(".") }
                .map { card + "/DCIM/" + folder + "/" + $0 }
        }
    }

    var freeBytes: Int64? { StorageProbe.freeBytes(at: folder, requireMountPoint: false) }

    /// Fills the card with a file of its own until the free space is a fifth below the Low
    /// storage mark (only a card of the run's own: a folder given is somebody's disk).
    func fill() -> String {
        guard mounted, let free = freeBytes else { return "card not filled (not a card of the soak's own)" }
        let size = free - (StoragePolicy.lowBytes - StoragePolicy.lowBytes / 5)
        guard size > 0 else { return "card already under its Low storage mark" }
        let descriptor = open(ballast, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return "card not filled: \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var result: Int32 = 0
        var reserved: Int64 = 0
        while reserved < size, result == 0 {
            let step = min(SoakCard.fillStep, size - reserved)
            result = posix_fallocate(descriptor, off_t(reserved), off_t(step))
            reserved += step
            sched_yield()
        }
        filled = result == 0
        return filled ? "card filled: \((freeBytes ?? 0) / 1_000_000) MB free" : "card not filled: \(String(cString: strerror(result)))"
    }

    /// The card is filled a few megabytes at a time, as photos would fill it: one call
    /// reserving hundreds of megabytes keeps a core in the kernel long enough, on a kernel
    /// without preemption, to wake the realtime loop late (three missed vblanks in a soak).
    static let fillStep: Int64 = 8 << 20

    func empty() -> String {
        guard filled else { return "card not emptied (not filled)" }
        unlink(ballast)
        filled = false
        return "card emptied: \((freeBytes ?? 0) / 1_000_000) MB free"
    }

    /// Reads back every finished file the run wrote with `reader`, then deletes it; returns
    /// how many were read.
    func checkAndClear(_ reader: (String) -> String?) -> Int {
        var count = 0
        for file in SoakCard.filesInDCIM(of: folder) where !foundAtStart.contains(file) {
            let name = String(file.split(separator: "/").last ?? "")
            let kind = String(name.split(separator: ".").last ?? "").uppercased()
            if let problem = reader(file) {
                refused.append("\(name): \(problem)")
            } else {
                checked[kind, default: 0] += 1
            }
            unlink(file)
            count += 1
        }
        return count
    }

    func finish() {
        if filled { unlink(ballast) }
        if mounted { umount2(folder, Int32(MNT_DETACH)) }
        if mounted { rmdir(folder) }
    }
}
