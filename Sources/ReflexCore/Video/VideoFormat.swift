/// What a recording is: its size, its rate, and the bit rate the encoder keeps to (which also
/// says how long the card lasts). A board chooses 1080p or 720p (`video = 1080p` in its
/// sensor.conf); 30 frames a second either way.
public struct VideoFormat: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    /// Bits a second of video: the encoder's average, its ceiling a quarter above.
    public let bitRate: Int
    /// A keyframe, and so a fragment of the file, every second: a power cut loses at most
    /// the second under way.
    public var keyframeInterval: Int { framesPerSecond }

    public init(width: Int, height: Int, framesPerSecond: Int = 30, bitRate: Int) {
        (self.width, self.height, self.framesPerSecond, self.bitRate) = (width, height, framesPerSecond, bitRate)
    }

    /// 12 Mbit/s: libx264's fastest preset still looks clean at 1080p30 (a phone's is 16).
    public static let fullHD = VideoFormat(width: 1920, height: 1080, bitRate: 12_000_000)
    public static let hd = VideoFormat(width: 1280, height: 720, bitRate: 6_000_000)

    /// "1080p" or "720p" (a board's setting).
    public init?(named name: String) {
        switch name.lowercased() {
        case "1080p", "1920x1080": self = .fullHD
        case "720p", "1280x720": self = .hd
        default: return nil
        }
    }

    public var name: String { "\(height)p\(framesPerSecond)" }
    public var description: String { "\(width)x\(height) at \(framesPerSecond) fps, \(bitRate / 1_000_000) Mbit/s" }

    /// Bytes a second on the card: the video at its ceiling, the sound, and the file's own
    /// boxes (a fragment's headers), rounded up, so the time left is never optimistic.
    public func bytesPerSecond(audioBitRate: Int) -> Int {
        (bitRate * 5 / 4 + audioBitRate) / 8 + 16 * 1024
    }
}
