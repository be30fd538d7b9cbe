/// A movie in review once played: where it is and whether it plays, for the overlay's time
/// and bar (in tenths of a second, so the overlay is painted again ten times a second at most).
public struct MovieProgress: Sendable, Equatable {
    public var tenths: Int
    public var durationTenths: Int
    public var playing: Bool

    public init(seconds: Double, duration: Double, playing: Bool) {
        tenths = max(0, Int(seconds * 10))
        durationTenths = max(1, Int((duration * 10).rounded()))
        self.playing = playing
    }

    public var seconds: Double { Double(tenths) / 10 }
    public var fraction: Double { min(1, Double(tenths) / Double(durationTenths)) }
}
