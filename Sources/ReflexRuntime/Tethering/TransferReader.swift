import ReflexCore
#if canImport(Glibc)
import Glibc
#endif

/// A host's transfers on bulk out, as containers: a command (one short transfer, its header
/// saying its length), and a data phase that may span many transfers (read to the length
/// its header declares, kept up to a bound and the rest dropped).
struct TransferReader {
    /// A container, or bytes that are none (with their header when they had one: the
    /// transaction to answer).
    enum Received {
        case container(PTPContainer)
        case malformed(PTPContainer.Header?)
    }

    /// One read's bytes: a whole transfer of the host's, up to this.
    static let transferBytes = 64 << 10

    let descriptor: Int32
    let endsOnEmptyRead: Bool
    private var buffer = [UInt8](repeating: 0, count: TransferReader.transferBytes)
    /// A container read where a data phase was due (the host sent none): the next command.
    private var pushedBack: [UInt8]?

    init(descriptor: Int32, endsOnEmptyRead: Bool) { (self.descriptor, self.endsOnEmptyRead) = (descriptor, endsOnEmptyRead) }

    /// The next command; nil when the pipe ended.
    mutating func container() -> Received? {
        guard var bytes = pushedBack ?? transfer() else { return nil }
        pushedBack = nil
        // (A zero-length packet a host sent after a data phase the camera did not wait for.)
        while bytes.isEmpty {
            guard let next = transfer() else { return nil }
            bytes = next
        }
        guard bytes.count >= PTPContainer.headerLength else { return .malformed(nil) }
        let header = PTPContainer.Header(bytes)
        // A command is at most 32 bytes; one the host split across transfers is put together.
        while bytes.count < Int(header.length), header.length <= 32 {
            guard let more = transfer() else { return nil }
            bytes += more
        }
        switch PTPContainer.parse(bytes) {
        case .success(let container): return .container(container)
        case .failure: return .malformed(header)
        }
    }

    /// The data phase after a command: its payload, up to `limit` bytes kept (the rest read
    /// and dropped); nil when the pipe ended. A host that sent a command instead has it
    /// read next, and the data phase is empty.
    mutating func dataPhase(keepingUpTo limit: Int) -> [UInt8]? {
        guard let first = transfer() else { return nil }
        guard first.count >= PTPContainer.headerLength, PTPContainer.Header(first).kind == PTPContainer.Kind.data.rawValue else {
            pushedBack = first
            return []
        }
        let declared = Int(PTPContainer.Header(first).length)
        var kept = Array(first[PTPContainer.headerLength...].prefix(limit))
        var received = first.count
        var lastWasShort = first.count < Self.transferBytes
        // (0xFFFFFFFF: longer than 4 GiB, ended by a short transfer.)
        while declared == Int(UInt32.max) ? !lastWasShort : received < declared {
            guard let more = transfer() else { return nil }
            received += more.count
            if kept.count < limit { kept += more.prefix(limit - kept.count) }
            lastWasShort = more.count < Self.transferBytes
            if more.isEmpty { break }
        }
        return kept
    }

    /// One read of the pipe (empty: a zero-length packet); nil when it ended.
    private mutating func transfer() -> [UInt8]? {
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 || (got == 0 && !endsOnEmptyRead) else { return nil }
            return Array(buffer[..<got])
        }
    }
}
