import ReflexStorage

/// Time the hypervisor gave this machine's CPUs to someone else (the "steal" column of
/// /proc/stat), so a benchmark can say how much of its worst case was not its own.
/// nil where the kernel does not report it.
enum HostStealTime {
    /// Milliseconds stolen from all CPUs since boot.
    static func milliseconds() -> Double? {
        guard let bytes = try? AtomicFile.read("/proc/stat", limit: 1 << 16) else { return nil }
        let firstLine = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        // cpu user nice system idle iowait irq softirq steal … (in USER_HZ, 100 a second)
        let fields = firstLine.split(separator: " ")
        guard fields.first == "cpu", fields.count > 8, let ticks = Double(fields[8]) else { return nil }
        return ticks * 10
    }

    /// "12 ms" of steal between two readings, or "not reported".
    static func describe(from start: Double?, to end: Double?) -> String {
        guard let start, let end else { return "not reported" }
        return "\(Int(end - start)) ms"
    }
}
