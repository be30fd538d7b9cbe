/// Which phones may use the camera's remote: a phone pairs by the one-time code the camera's
/// screen shows (typed, or carried by the QR code) and is given a random token (256 bits, as
/// hex) that every request after must carry. Each pairing draws a new code. Five wrong codes
/// lock pairing for a minute, whatever code is tried. Pure: the time and the randomness are
/// the caller's (the camera's are the monotonic clock and the kernel's getrandom).
public struct RemotePairing: Sendable, Equatable {
    public static let codeDigits = 6
    public static let wrongCodesBeforeLock = 5
    public static let lockSeconds = 60.0
    /// Bytes of randomness in a token (hex: twice as many characters).
    public static let tokenBytes = 32

    /// The code the screen shows now.
    public private(set) var code: String
    /// Tokens of the phones paired, oldest first.
    public private(set) var tokens: [String]
    /// Until when pairing is locked (nil: open).
    public private(set) var lockedUntil: Double?
    private var wrongCodes = 0
    /// At most this many phones stay paired; pairing one more forgets the oldest.
    public static let phonesKept = 8

    public init(tokens: [String] = [], random: inout some RandomNumberGenerator) {
        code = Self.drawCode(&random)
        self.tokens = tokens.filter(Self.isWellFormed)
    }

    /// What a phone's code gets it.
    public enum Answer: Sendable, Equatable {
        case paired(token: String)
        /// Wrong; tries left before the lock.
        case wrongCode(triesLeft: Int)
        /// Locked: no code is tried, for this many seconds more (rounded up).
        case locked(seconds: Int)
    }

    /// A phone's try at `code` at `now`.
    public mutating func pair(code tried: String, at now: Double, random: inout some RandomNumberGenerator) -> Answer {
        if let lockedUntil {
            if now < lockedUntil { return .locked(seconds: Int((lockedUntil - now).rounded(.up))) }
            self.lockedUntil = nil
            wrongCodes = 0
        }
        guard Self.sameBytes(tried.filter { !$0.isWhitespace }, code) else {
            wrongCodes += 1
            if wrongCodes >= Self.wrongCodesBeforeLock {
                lockedUntil = now + Self.lockSeconds
                return .locked(seconds: Int(Self.lockSeconds))
            }
            return .wrongCode(triesLeft: Self.wrongCodesBeforeLock - wrongCodes)
        }
        wrongCodes = 0
        var token = ""
        for _ in 0..<Self.tokenBytes {
            let byte = UInt8.random(in: 0...255, using: &random)
            token += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }
        tokens.append(token)
        if tokens.count > Self.phonesKept { tokens.removeFirst(tokens.count - Self.phonesKept) }
        code = Self.drawCode(&random)
        return .paired(token: token)
    }

    /// Whether `token` is a paired phone's (compared in constant time: how long a wrong token
    /// takes says nothing of the right one).
    public func admits(_ token: String?) -> Bool {
        guard let token, Self.isWellFormed(token) else { return false }
        var found = false
        for kept in tokens where Self.sameBytes(token, kept) { found = true }
        return found
    }

    /// Whether pairing is locked at `now`.
    public func isLocked(at now: Double) -> Bool { lockedUntil.map { now < $0 } ?? false }

    /// Every phone forgotten (the menu's Forget phones), and a new code.
    public mutating func forgetEveryPhone(random: inout some RandomNumberGenerator) {
        tokens = []
        code = Self.drawCode(&random)
    }

    private static func drawCode(_ random: inout some RandomNumberGenerator) -> String {
        String((0..<codeDigits).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
    }

    private static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == tokenBytes * 2 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Equal bytes, in a time that depends only on the lengths.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
