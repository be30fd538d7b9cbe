#if canImport(Glibc)
import Glibc
#endif

/// How much memory the camera may give to frames kept for photos: a share of what it may
/// use at most — its cgroup's memory.max where a limit is set (a systemd unit's MemoryMax),
/// else the memory available — and never more than a board's own cap.
public enum MemoryBudget {
    /// The share of the limit frames may take: the rest is the program, the display's
    /// buffers, the encoders' working memory and the kernel's page cache for the card.
    public static let share = 0.25

    /// Bytes for kept frames; `cap` is the board's (nil: none).
    public static func forFrames(cap: Int? = nil) -> Int {
        let limit = [cgroupLimit(), availableMemory()].compactMap { $0 }.min() ?? 512 << 20
        let budget = Int(Double(limit) * share)
        return cap.map { min($0, budget) } ?? budget
    }

    /// This process's cgroup v2 memory.max, nil when unlimited or unknown.
    public static func cgroupLimit() -> Int? {
        guard let membership = SmallFile.text("/proc/self/cgroup"),
              let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let path = "/sys/fs/cgroup" + line.dropFirst(3) + "/memory.max"
        guard let text = SmallFile.text(path) else { return nil }
        return Int(text.filter { !$0.isWhitespace })  // "max" → nil
    }

    /// MemAvailable from /proc/meminfo.
    public static func availableMemory() -> Int? {
        guard let text = SmallFile.text("/proc/meminfo"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }
}
