import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Device nodes in a /dev folder whose names start with a prefix, in numeric order
/// (video2 before video10), so probes list devices the way the kernel numbered them.
func deviceNodes(in folder: String, prefix: String) -> [String] {
    namesInFolder(folder)
        .filter { $0.hasPrefix(prefix) }
        .compactMap { name in Int(name.dropFirst(prefix.count)).map { (number: $0, name: name) } }
        .sorted { $0.number < $1.number }
        .map { folder + "/" + $0.name }
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
