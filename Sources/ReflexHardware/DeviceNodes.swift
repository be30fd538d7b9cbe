#if canImport(Glibc)
import Glibc
#endif

/// Device nodes in a /dev folder whose names start with a prefix, in numeric order
/// (video2 before video10), so probes list devices the way the kernel numbered them.
func deviceNodes(in folder: String, prefix: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var numbered: [(Int, String)] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)) else { continue }
        numbered.append((number, folder + "/" + name))
    }
    return numbered.sorted { $0.0 < $1.0 }.map(\.1)
}

/// A fixed-size C char array (a tuple in Swift) as a String, stopping at the first NUL.
func string<T>(fromCArray array: T) -> String {
    withUnsafeBytes(of: array) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The reason an open failed, in errno's words.
func errnoDescription(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
