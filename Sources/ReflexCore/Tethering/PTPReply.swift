/// The camera's answer to one command: a data phase, if any — bytes made in memory or a
/// part of a card's file the transport streams from the file itself — then the response.
public struct PTPReply: Sendable, Equatable {
    public enum Data: Sendable, Equatable {
        case none
        case bytes([UInt8])
        /// `count` bytes of the file at `path` from `offset`.
        case file(path: String, offset: UInt64, count: UInt64)
    }

    public var data: Data
    public var code: PTPResponseCode
    public var parameters: [UInt32]

    public init(data: Data = .none, code: PTPResponseCode = .ok, parameters: [UInt32] = []) {
        (self.data, self.code, self.parameters) = (data, code, parameters)
    }

    /// A response alone: a refusal, or an OK with no data.
    public static func answering(_ code: PTPResponseCode, parameters: [UInt32] = []) -> PTPReply {
        PTPReply(code: code, parameters: parameters)
    }

    /// The response container for the command in `transactionID`.
    public func response(transactionID: UInt32) -> PTPContainer {
        PTPContainer(kind: .response, code: code.rawValue, transactionID: transactionID, parameters: parameters)
    }
}
