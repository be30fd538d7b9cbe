#if canImport(Glibc)
import Glibc
#endif

/// The growable buffer libtiff writes a file into, through the procedures `TIFFClientOpen`
/// takes. libtiff seeks back and reads what it wrote (to link directories), so it is a whole
/// file, not an append-only sink. It also keeps libtiff's error messages for this file.
final class TIFFMemoryStream {
    var bytes: [UInt8]
    private var position = 0
    /// libtiff's errors, in order ("module: message").
    var errors: [String] = []

    init(expectedSize: Int) {
        bytes = []
        bytes.reserveCapacity(expectedSize)
        // A 12 MP DNG is 24 MB of fresh memory: touched 4 KB page by page, its page faults
        // cost as long as the copy. The kernel gives it in 2 MB pages when asked (transparent
        // huge pages, "madvise" mode on Debian); the storage stays put while within capacity.
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let huge = 2 << 20
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + expectedSize) & ~(huge - 1)
            if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
        }
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let available = max(0, min(count, bytes.count - position))
        guard available > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: available) }
        position += available
        return available
    }

    func write(_ buffer: UnsafeRawPointer, count: Int) -> Int {
        let source = UnsafeRawBufferPointer(start: buffer, count: count)
        if position == bytes.count {
            bytes.append(contentsOf: source)  // the usual case: libtiff appends
        } else {
            if position + count > bytes.count { bytes += repeatElement(0, count: position + count - bytes.count) }
            bytes.withUnsafeMutableBytes { ($0.baseAddress! + position).copyMemory(from: buffer, byteCount: count) }
        }
        position += count
        return count
    }

    /// The new position, or nil for one before the start. Past the end is allowed: the gap
    /// is filled with zeros when written.
    func seek(_ offset: UInt64, whence: Int32) -> UInt64? {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = bytes.count
        default: return nil
        }
        let target = base + Int(Int64(bitPattern: offset))
        guard target >= 0 else { return nil }
        position = target
        return UInt64(target)
    }

    /// The stream behind a `thandle_t` (or an error handler's user data).
    static func from(_ handle: UnsafeMutableRawPointer?) -> TIFFMemoryStream {
        Unmanaged<TIFFMemoryStream>.fromOpaque(handle!).takeUnretainedValue()
    }
}
