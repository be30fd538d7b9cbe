/// How long the card lets a recording go on: what it holds at the recording's rate, less a
/// reserve the movie's end and a few photos need. A recording starts only with some minutes'
/// room, and stops itself, cleanly, when the reserve is reached, before the card is full. On a
/// FAT card a file cannot reach 4 GiB: a movie stops before that too.
public struct RecordingBudget: Sendable, Equatable {
    public let bytesPerSecond: Int
    /// Left free at the stop: three seconds of the movie and 32 MiB (its end, a few photos).
    public var reserveBytes: Int64 { Int64(bytesPerSecond) * 3 + 32 << 20 }
    /// Room a new recording needs beyond the reserve: ten seconds.
    public var startBytes: Int64 { reserveBytes + Int64(bytesPerSecond) * 10 }
    /// FAT's largest file is 4 GiB less a byte.
    public static let fatFileLimit: Int64 = (4 << 30) - 1

    public init(bytesPerSecond: Int) { self.bytesPerSecond = max(bytesPerSecond, 1) }

    /// Whole seconds the card holds beyond the reserve (0 when none).
    public func secondsLeft(freeBytes: Int64) -> Int {
        Int(max(0, freeBytes - reserveBytes) / Int64(bytesPerSecond))
    }

    public func canStart(freeBytes: Int64) -> Bool { freeBytes >= startBytes }

    /// Why a recording must stop now, or nil to go on.
    public func stopReason(freeBytes: Int64, fileBytes: Int64, onFAT: Bool) -> StopReason? {
        if freeBytes < reserveBytes { return .cardFull }
        if onFAT && fileBytes + reserveBytes / 2 >= RecordingBudget.fatFileLimit { return .fileSizeLimit }
        return nil
    }

    public enum StopReason: Sendable, Equatable {
        case cardFull, fileSizeLimit
    }
}
