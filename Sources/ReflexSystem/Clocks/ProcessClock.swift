#if canImport(Glibc)
import Glibc
#endif

/// Time on the boot clock (CLOCK_BOOTTIME: from the kernel's start, counting suspend), on
/// which the kernel also dates each process's start: how long reflex took to show its
/// first frame is measured on it, from exec, not from `main`.
public enum ProcessClock {
    /// Seconds since the kernel started.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// When this process started (its exec), boot-clock seconds: /proc/self/stat's
    /// `starttime`, in clock ticks (1/100 s on Linux), so to within 10 ms.
    public static let startBootSeconds: Double = {
        guard let file = fopen("/proc/self/stat", "r") else { return now() }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return now() }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command's name is in parentheses and may hold spaces: fields count from the last ')'.
        guard let close = line.lastIndex(of: ")") else { return now() }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // Field 22 of the line is the 20th after the name: state is the 3rd.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return now() }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }()
}

/// Boot-clock seconds now (see `ProcessClock`).
public func bootSeconds() -> Double { ProcessClock.now() }
