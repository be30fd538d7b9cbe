import ReflexCore
import Testing

/// The remote's pairing (issue 54): the code shown pairs a phone once, with a 256-bit token
/// every later request must carry; five wrong codes lock pairing for a minute, the right code
/// too; forgetting the phones refuses their tokens.
@Suite struct RemotePairingTests {
    /// The same numbers every run: a test's randomness.
    struct CountingRandom: RandomNumberGenerator {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test func theCodeShownPairsOnceWithAFreshToken() throws {
        var random = CountingRandom()
        var pairing = RemotePairing(random: &random)
        let code = pairing.code
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        guard case .paired(let token) = pairing.pair(code: code, at: 0, random: &random) else {
            Issue.record("the right code did not pair")
            return
        }
        #expect(token.count == 64 && pairing.admits(token))
        #expect(pairing.code != code, "a new code once used")
        #expect(pairing.pair(code: code, at: 1, random: &random) == .wrongCode(triesLeft: 4), "the old code is spent")
        guard case .paired(let second) = pairing.pair(code: " " + pairing.code + " ", at: 2, random: &random) else {
            Issue.record("the new code did not pair")
            return
        }
        #expect(second != token && pairing.admits(token) && pairing.admits(second))
    }

    @Test func aTokenMustBeOneGiven() {
        var random = CountingRandom()
        var pairing = RemotePairing(random: &random)
        guard case .paired(let token) = pairing.pair(code: pairing.code, at: 0, random: &random) else { return }
        var changed = Array(token)
        changed[10] = changed[10] == "a" ? "b" : "a"
        #expect(!pairing.admits(String(changed)))
        #expect(!pairing.admits(nil) && !pairing.admits("") && !pairing.admits(String(token.dropLast())))
        #expect(!pairing.admits(token.uppercased()), "only the form given")
    }

    @Test func fiveWrongCodesLockPairingForAMinute() {
        var random = CountingRandom()
        var pairing = RemotePairing(random: &random)
        let wrong = pairing.code == "000000" ? "111111" : "000000"
        for left in [4, 3, 2, 1] { #expect(pairing.pair(code: wrong, at: 10, random: &random) == .wrongCode(triesLeft: left)) }
        #expect(pairing.pair(code: wrong, at: 10, random: &random) == .locked(seconds: 60))
        #expect(pairing.isLocked(at: 69.9))
        #expect(pairing.pair(code: pairing.code, at: 40, random: &random) == .locked(seconds: 30), "the right code too")
        #expect(!pairing.isLocked(at: 70))
        if case .paired = pairing.pair(code: pairing.code, at: 70.5, random: &random) {} else {
            Issue.record("open again after the minute")
        }
        #expect(pairing.pair(code: wrong, at: 71, random: &random) == .wrongCode(triesLeft: 4), "counted afresh")
    }

    @Test func forgettingThePhonesRefusesTheirTokens() {
        var random = CountingRandom()
        var pairing = RemotePairing(random: &random)
        guard case .paired(let token) = pairing.pair(code: pairing.code, at: 0, random: &random) else { return }
        let code = pairing.code
        pairing.forgetEveryPhone(random: &random)
        #expect(!pairing.admits(token) && pairing.tokens.isEmpty && pairing.code != code)
    }

    @Test func tokensKeptAcrossARestartStillAdmitAndMalformedOnesAreDropped() {
        var random = CountingRandom()
        let kept = String(repeating: "ab", count: 32)
        let pairing = RemotePairing(tokens: [kept, "nothex", String(repeating: "AB", count: 32)], random: &random)
        #expect(pairing.tokens == [kept] && pairing.admits(kept))
    }

    @Test func theOldestPhoneIsForgottenPastEight() {
        var random = CountingRandom()
        var pairing = RemotePairing(random: &random)
        var tokens: [String] = []
        for second in 0..<9 {
            if case .paired(let token) = pairing.pair(code: pairing.code, at: Double(second), random: &random) { tokens.append(token) }
        }
        #expect(tokens.count == 9 && !pairing.admits(tokens[0]) && tokens.dropFirst().allSatisfy(pairing.admits))
    }
}
