#if canImport(Glibc)
import Glibc
#endif

/// write(2) on fd 2; kept apart so the rest of the command imports no C.
func writeToStandardError(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(2, bytes, count)
}
