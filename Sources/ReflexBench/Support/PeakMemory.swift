#if canImport(Glibc)
import Glibc
#endif

/// The process's resident memory and its peak since a mark, from /proc/self/status (VmRSS,
/// VmHWM; writing 5 to /proc/self/clear_refs moves the peak down to now): what a piece of work
/// held at its most.
enum PeakMemory {
    /// Starts a measure: the peak is brought down to the memory resident now.
    static func mark() {
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return }
        _ = write(file, "5", 1)
        close(file)
    }

    static var residentBytes: Int? { field("VmRSS:").map { $0 * 1024 } }
    static var peakBytes: Int? { field("VmHWM:").map { $0 * 1024 } }

    /// The number on a "Name:   1234 kB" (or "Threads: 12") line of /proc/self/status.
    static func field(_ name: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(name) else { continue }
            let number = text.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first
            return number.flatMap { Int($0) }
        }
        return nil
    }
}
