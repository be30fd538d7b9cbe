/// When the card counts as low (seed 002 story 4.8: below 500 MB free, say so with the
/// number of RAW shots left).
public enum StoragePolicy {
    public static let lowBytes: Int64 = 500 * 1_000_000

    /// `freeBytes` nil: no card. A RAW shot is the sensor's full frame at 16 bits a sample
    /// (an uncompressed DNG), the largest a shot can be; a camera without RAW counts JPEGs of
    /// about half a byte a pixel.
    public static func indicator(freeBytes: Int64?, sensorPixels: Int, savesRaw: Bool = true) -> StorageIndicator {
        guard let freeBytes else { return .missing }
        guard freeBytes < lowBytes else { return .ready }
        let pixels = Int64(max(sensorPixels, 1))
        let perShot = savesRaw ? pixels * 2 : max(pixels / 2, 1)
        return .low(shotsLeft: Int(max(freeBytes, 0) / perShot))
    }
}
