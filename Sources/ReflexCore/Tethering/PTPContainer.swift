/// One container of PTP over USB (ISO 15740 and the USB Still Image Capture Device class,
/// §7): a 12-byte header — the whole container's length, its kind, an operation, response or
/// event code, the transaction's ID, all little-endian — then the parameters (a command's,
/// a response's or an event's: up to five 32-bit words) or a data phase's bytes.
public struct PTPContainer: Sendable, Equatable {
    public enum Kind: UInt16, Sendable {
        case command = 1
        case data = 2
        case response = 3
        case event = 4
    }

    /// Why bytes are not a container.
    public enum Problem: Error, Sendable, Equatable {
        /// Fewer than the header's 12 bytes.
        case tooShort
        /// The header's length is below 12 or is not the number of bytes given.
        case lengthMismatch(declared: UInt32, received: Int)
        case unknownKind(UInt16)
        /// A command, response or event whose parameters are not whole words, or more than five.
        case badParameters(bytes: Int)
    }

    public static let headerLength = 12
    public static let mostParameters = 5

    public var kind: Kind
    public var code: UInt16
    public var transactionID: UInt32
    /// A data container's bytes; a command's, response's or event's parameters as bytes.
    public var payload: [UInt8]

    public init(kind: Kind, code: UInt16, transactionID: UInt32, payload: [UInt8] = []) {
        (self.kind, self.code, self.transactionID, self.payload) = (kind, code, transactionID, payload)
    }

    public init(kind: Kind, code: UInt16, transactionID: UInt32, parameters: [UInt32]) {
        var writer = PTPDataWriter()
        for parameter in parameters { writer.append(parameter) }
        self.init(kind: kind, code: code, transactionID: transactionID, payload: writer.bytes)
    }

    /// A command, response or event's parameters (up to five words).
    public var parameters: [UInt32] {
        var reader = PTPDataReader(payload)
        var words: [UInt32] = []
        while let word = try? reader.uint32() { words.append(word) }
        return words
    }

    /// The container `bytes` hold, exactly: one USB transfer from the host.
    public static func parse(_ bytes: [UInt8]) -> Result<PTPContainer, Problem> {
        guard bytes.count >= headerLength else { return .failure(.tooShort) }
        let header = Header(bytes)
        guard header.length >= UInt32(headerLength), Int(header.length) == bytes.count else {
            return .failure(.lengthMismatch(declared: header.length, received: bytes.count))
        }
        guard let kind = Kind(rawValue: header.kind) else { return .failure(.unknownKind(header.kind)) }
        let payload = Array(bytes[headerLength...])
        if kind != .data, payload.count % 4 != 0 || payload.count > 4 * mostParameters {
            return .failure(.badParameters(bytes: payload.count))
        }
        return .success(PTPContainer(kind: kind, code: header.code, transactionID: header.transactionID, payload: payload))
    }

    /// The container as sent.
    public func encoded() -> [UInt8] {
        Self.header(kind: kind, code: code, transactionID: transactionID, payloadLength: UInt64(payload.count)) + payload
    }

    /// A header alone, for a data phase whose bytes follow from a file. A payload too long for
    /// the 32-bit length (4 GiB and over) is declared 0xFFFFFFFF, as the class allows: the
    /// host reads until the short packet that ends the transfer.
    public static func header(kind: Kind, code: UInt16, transactionID: UInt32, payloadLength: UInt64) -> [UInt8] {
        let total = UInt64(headerLength) + payloadLength
        var writer = PTPDataWriter()
        writer.append(total > UInt64(UInt32.max - 1) ? UInt32.max : UInt32(total))
        writer.append(kind.rawValue)
        writer.append(code)
        writer.append(transactionID)
        return writer.bytes
    }

    /// The fields of a header's 12 bytes, read before knowing whether they make a container
    /// (a data phase longer than one transfer arrives in pieces).
    public struct Header: Sendable, Equatable {
        public let length: UInt32
        public let kind: UInt16
        public let code: UInt16
        public let transactionID: UInt32

        /// `bytes`: at least 12.
        public init(_ bytes: [UInt8]) {
            var reader = PTPDataReader(Array(bytes.prefix(PTPContainer.headerLength)))
            length = (try? reader.uint32()) ?? 0
            kind = (try? reader.uint16()) ?? 0
            code = (try? reader.uint16()) ?? 0
            transactionID = (try? reader.uint32()) ?? 0
        }
    }
}
