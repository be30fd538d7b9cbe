import ReflexCore
import ReflexStorage
import ReflexSystem
import Synchronization

/// The remote's pairing as the camera keeps it: any thread may ask it (the server's, the
/// screen's for the code to show); the paired phones' tokens are kept in `file` (one a line,
/// written whole or not at all, readable by the camera alone), so a phone stays paired when
/// the camera restarts. Its randomness is the kernel's (getrandom), its time the monotonic
/// clock.
public final class RemotePairingKeeper: Sendable {
    private let state: Mutex<RemotePairing>
    private let file: String?
    private let log: @Sendable (String) -> Void

    /// Tokens read from `file` (nil: kept in memory only, as in tests).
    public init(file: String?, log: @escaping @Sendable (String) -> Void) {
        var random = SystemRandomNumberGenerator()
        var tokens: [String] = []
        if let file, let bytes = try? AtomicFile.read(file, limit: 64 * 1024) {
            tokens = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        state = Mutex(RemotePairing(tokens: tokens, random: &random))
        (self.file, self.log) = (file, log)
    }

    /// The code the camera's screen shows now.
    public var code: String { state.withLock { $0.code } }

    /// Seconds pairing stays locked (nil: open), for the screen.
    public var lockedSeconds: Int? {
        let now = monotonicSeconds()
        return state.withLock { pairing in
            pairing.lockedUntil.flatMap { now < $0 ? Int(($0 - now).rounded(.up)) : nil }
        }
    }

    public func pair(code: String) -> RemotePairing.Answer {
        var random = SystemRandomNumberGenerator()
        let now = monotonicSeconds()
        let (answer, tokens) = state.withLock { pairing in
            (pairing.pair(code: code, at: now, random: &random), pairing.tokens)
        }
        switch answer {
        case .paired: save(tokens)
        case .locked(let seconds): log("remote: pairing locked for \(seconds) s after \(RemotePairing.wrongCodesBeforeLock) wrong codes")
        case .wrongCode: break
        }
        return answer
    }

    public func admits(_ token: String?) -> Bool { state.withLock { $0.admits(token) } }

    /// Every phone forgotten (the quick menu's Forget phones).
    public func forgetEveryPhone() {
        var random = SystemRandomNumberGenerator()
        state.withLock { $0.forgetEveryPhone(random: &random) }
        save([])
    }

    private func save(_ tokens: [String]) {
        guard let file else { return }
        do {
            try AtomicFile.write(Array(tokens.map { $0 + "\n" }.joined().utf8), to: file, permissions: 0o600)
        } catch {
            log("remote: the paired phones could not be kept: \(error)")
        }
    }
}
