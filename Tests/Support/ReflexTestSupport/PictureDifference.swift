#if canImport(Glibc)
import Glibc
#endif

/// How far a decoded picture is from the one encoded, as video people say it: the peak
/// signal-to-noise ratio over red, green and blue of two XRGB pictures of one size (99 dB for
/// identical pictures). 30 dB and more is a faithful encoding.
public enum PictureDifference {
    public static func peakSignalToNoise(_ a: [UInt32], _ b: [UInt32]) -> Double {
        precondition(a.count == b.count, "pictures of one size")
        var squares = 0.0
        for i in a.indices {
            for shift in [0, 8, 16] as [UInt32] {
                let d = Double(Int((a[i] >> shift) & 0xFF) - Int((b[i] >> shift) & 0xFF))
                squares += d * d
            }
        }
        let mean = squares / Double(max(a.count, 1) * 3)
        return mean == 0 ? 99 : 10 * log10(255 * 255 / mean)
    }
}
