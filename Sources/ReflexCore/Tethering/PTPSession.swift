/// The session and transaction rules of ISO 15740 §9: one session at a time, opened with a
/// nonzero ID; every operation but GetDeviceInfo and OpenSession inside it; each command's
/// transaction ID after the last one's. A command breaking them is answered with the
/// response code the standard gives, and nothing runs.
public struct PTPSession: Sendable, Equatable {
    /// What to do with a command.
    public enum Verdict: Sendable, Equatable {
        case proceed
        /// Answer with `code` (and `parameters`) without running it.
        case refuse(PTPResponseCode, parameters: [UInt32] = [])
    }

    /// The open session's ID; nil when none is open.
    public private(set) var sessionID: UInt32?
    private var lastTransactionID: UInt32 = 0

    public init() {}

    /// Whether the command with `code` may run now. OpenSession and CloseSession that
    /// proceed open and close the session here.
    public mutating func admit(code: UInt16, transactionID: UInt32, parameters: [UInt32]) -> Verdict {
        guard let operation = PTPOperation(rawValue: code) else { return .refuse(.operationNotSupported) }
        switch operation {
        case .getDeviceInfo:
            return .proceed
        case .openSession:
            if let sessionID { return .refuse(.sessionAlreadyOpen, parameters: [sessionID]) }
            guard let asked = parameters.first, asked != 0 else { return .refuse(.invalidParameter) }
            sessionID = asked
            lastTransactionID = transactionID
            return .proceed
        default:
            guard sessionID != nil else { return .refuse(.sessionNotOpen) }
            // 0 and 0xFFFFFFFF are reserved; IDs only grow within a session.
            guard transactionID != 0, transactionID != UInt32.max, transactionID > lastTransactionID else {
                return .refuse(.invalidTransactionID)
            }
            lastTransactionID = transactionID
            if operation == .closeSession { sessionID = nil }
            return .proceed
        }
    }

    /// The host went away or reset the device (the class's Device Reset request): no session.
    public mutating func end() {
        sessionID = nil
        lastTransactionID = 0
    }
}
