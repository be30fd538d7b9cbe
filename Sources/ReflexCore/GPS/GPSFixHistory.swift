/// The receiver's last reports, each with when it came (monotonic seconds): the fix a photo
/// carries is the one that held at its press, even when the photo is made seconds later.
/// A fix older than `maximumAge` at the press counts as none, and so does one followed by a
/// report without a fix or by gpsd going away. A fixed ring: recording never allocates.
public struct GPSFixHistory: Sendable {
    /// Older than this, a fix says nothing about where the camera is now.
    public static let maximumAge = 4.0
    static let capacity = 32

    private var received = [Double](repeating: -.infinity, count: GPSFixHistory.capacity)
    private var fixes = [GPSFix?](repeating: nil, count: GPSFixHistory.capacity)
    private var next = 0

    public init() {}

    /// A report at `time`: a fix, or nil for "no fix" (a report without one, gpsd gone).
    public mutating func record(_ fix: GPSFix?, at time: Double) {
        received[next] = time
        fixes[next] = fix
        next = (next + 1) % GPSFixHistory.capacity
    }

    /// The fix that held at `time`: the newest report at or before it, if it is a fix no
    /// older than `maximumAge`.
    public func fix(at time: Double) -> GPSFix? {
        var best: Int?
        for index in received.indices where received[index] <= time {
            if best == nil || received[index] > received[best!] { best = index }
        }
        guard let best, time - received[best] <= GPSFixHistory.maximumAge else { return nil }
        return fixes[best]
    }
}
