import ReflexCore
import Testing

/// The session and transaction rules a host must keep (ISO 15740 §9; issue 55, bad hosts):
/// broken, they get the standard's response code and nothing runs.
@Suite struct PTPSessionTests {
    static func admit(_ session: inout PTPSession, _ operation: PTPOperation, _ transaction: UInt32,
                      _ parameters: [UInt32] = []) -> PTPSession.Verdict {
        session.admit(code: operation.rawValue, transactionID: transaction, parameters: parameters)
    }

    @Test func aHostOpensASessionThenCountsItsTransactions() {
        var session = PTPSession()
        #expect(Self.admit(&session, .getDeviceInfo, 0) == .proceed, "the device's description needs no session")
        #expect(Self.admit(&session, .getStorageIDs, 1) == .refuse(.sessionNotOpen))
        #expect(Self.admit(&session, .openSession, 0, [1]) == .proceed && session.sessionID == 1)
        #expect(Self.admit(&session, .getStorageIDs, 1) == .proceed)
        #expect(Self.admit(&session, .getObjectHandles, 2) == .proceed)
        #expect(Self.admit(&session, .closeSession, 3) == .proceed && session.sessionID == nil)
        #expect(Self.admit(&session, .getObjectHandles, 4) == .refuse(.sessionNotOpen))
    }

    @Test func aTransactionOutOfOrderIsRefused() {
        var session = PTPSession()
        _ = Self.admit(&session, .openSession, 0, [1])
        #expect(Self.admit(&session, .getStorageIDs, 5) == .proceed)
        #expect(Self.admit(&session, .getStorageIDs, 5) == .refuse(.invalidTransactionID), "the same ID again")
        #expect(Self.admit(&session, .getStorageIDs, 4) == .refuse(.invalidTransactionID), "an earlier one")
        #expect(Self.admit(&session, .getStorageIDs, UInt32.max) == .refuse(.invalidTransactionID), "the reserved one")
        #expect(Self.admit(&session, .getStorageIDs, 6) == .proceed, "the next goes on")
    }

    @Test func aSecondSessionAndSessionZeroAreRefused() {
        var session = PTPSession()
        #expect(Self.admit(&session, .openSession, 0, [0]) == .refuse(.invalidParameter))
        #expect(Self.admit(&session, .openSession, 0, []) == .refuse(.invalidParameter))
        _ = Self.admit(&session, .openSession, 0, [7])
        #expect(Self.admit(&session, .openSession, 1, [8]) == .refuse(.sessionAlreadyOpen, parameters: [7]))
    }

    @Test func anUnknownOperationIsNotSupportedInOrOutOfASession() {
        var session = PTPSession()
        #expect(session.admit(code: 0x1013, transactionID: 1, parameters: []) == .refuse(.operationNotSupported), "PowerDown")
        _ = Self.admit(&session, .openSession, 0, [1])
        #expect(session.admit(code: 0x9999, transactionID: 1, parameters: []) == .refuse(.operationNotSupported))
    }

    @Test func aHostThatWentAwayLeavesNoSession() {
        var session = PTPSession()
        _ = Self.admit(&session, .openSession, 0, [1])
        _ = Self.admit(&session, .getStorageIDs, 9)
        session.end()
        #expect(Self.admit(&session, .getStorageIDs, 10) == .refuse(.sessionNotOpen))
        #expect(Self.admit(&session, .openSession, 0, [2]) == .proceed && Self.admit(&session, .getStorageIDs, 1) == .proceed,
                "a new host starts its count again")
    }
}
