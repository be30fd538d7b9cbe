import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// CPU time of this process's threads, by name, from /proc/self/task: a thread's helpers
/// (libx264's slice threads) take the name of the thread that made them, so a name counts
/// the work done for it.
enum ThreadTimes {
    /// User + system seconds of every thread called `name`.
    static func seconds(named name: String) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for task in namesInFolder("/proc/self/task") {
            let folder = "/proc/self/task/" + task
            guard let comm = try? AtomicFile.read(folder + "/comm", limit: 64),
                  String(decoding: comm, as: UTF8.self).trimmingSuffix() == name,
                  let stat = try? AtomicFile.read(folder + "/stat", limit: 4096) else { continue }
            // After the name's closing parenthesis: state is field 3, utime 14, stime 15.
            let text = String(decoding: stat, as: UTF8.self)
            guard let close = text.lastIndex(of: ")") else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(String(fields[11])), let system = Double(String(fields[12])) else { continue }
            total += (user + system) / ticks
        }
        return total
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
