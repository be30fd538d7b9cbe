/// Bytes from a stream cut into lines (`\n`, a `\r` before it dropped). A line longer than
/// `limit` is thrown away whole, so a peer that never ends a line cannot grow it without end.
public struct LineBuffer: Sendable {
    public let limit: Int
    private var pending: [UInt8] = []
    private var discarding = false

    public init(limit: Int = 1 << 16) {
        self.limit = limit
    }

    /// Takes `bytes`; the lines they complete, in order.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == 0x0A {
                if !discarding {
                    if pending.last == 0x0D { pending.removeLast() }
                    lines.append(String(decoding: pending, as: UTF8.self))
                }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                pending.append(byte)
                if pending.count > limit {
                    pending.removeAll(keepingCapacity: true)
                    discarding = true
                }
            }
        }
        return lines
    }

    /// Forgets a partial line (a new connection).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        discarding = false
    }
}
