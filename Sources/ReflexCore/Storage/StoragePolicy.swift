/// What the card's free space means for the photographer (docs/camera.md, Photos): below 500 MB a
/// "Low storage" warning with the shots left in the chosen format, below 100 MB a prominent
/// one at each press, and "Storage full" once the next photo would not fit. The shots left
/// come from the real sizes of this camera's files (a running average of those saved), and
/// from the sensor's size before the first.
public struct StoragePolicy: Sendable, Equatable {
    public static let lowBytes: Int64 = 500_000_000
    public static let criticalBytes: Int64 = 100_000_000
    /// Room the file system needs beyond a file's bytes (a FAT cluster, directory entries).
    static let overheadBytes: Int64 = 256 * 1024

    /// The sensor's largest frame, which the estimates start from.
    public let sensorPixels: Int
    /// What one photo of each kind takes on this camera.
    public private(set) var rawBytes: Int64
    public private(set) var jpegBytes: Int64
    private var rawMeasured = false
    private var jpegMeasured = false

    /// Estimates until files are saved: a DNG holds 16 bits a pixel and a preview; a
    /// high-quality JPEG about 3 bits a pixel.
    public init(sensorPixels: Int) {
        self.sensorPixels = sensorPixels
        let pixels = Int64(max(sensorPixels, 1))
        rawBytes = pixels * 2 + 200_000
        jpegBytes = pixels * 3 / 8 + 20_000
    }

    /// A photo's files were saved with these sizes: the estimates follow them (the first
    /// replaces the guess; later ones are averaged in, a quarter each).
    public mutating func recordSaved(rawBytes raw: Int64?, jpegBytes jpeg: Int64?) {
        if let raw {
            rawBytes = rawMeasured ? (rawBytes * 3 + raw) / 4 : raw
            rawMeasured = true
        }
        if let jpeg {
            jpegBytes = jpegMeasured ? (jpegBytes * 3 + jpeg) / 4 : jpeg
            jpegMeasured = true
        }
    }

    public func bytesPerShot(_ format: CaptureFormat) -> Int64 {
        switch format {
        case .jpeg: jpegBytes + StoragePolicy.overheadBytes
        // (A merged DNG's 16 bits compress losslessly to about a plain one's size.)
        case .raw, .enhancedRaw: rawBytes + StoragePolicy.overheadBytes
        case .rawPlusJPEG, .enhancedRawPlusJPEG: rawBytes + jpegBytes + 2 * StoragePolicy.overheadBytes
        }
    }

    /// The card as the top bar shows it: `freeBytes` nil is no card; a read-only card has no
    /// room, but "Storage full" would send the photographer deleting photos for nothing.
    public func indicator(freeBytes: Int64?, readOnly: Bool = false, format: CaptureFormat) -> StorageIndicator {
        guard let freeBytes else { return .missing }
        if readOnly { return .readOnly }
        let advice = advice(freeBytes: freeBytes, format: format)
        return advice.level == .plenty ? .ready : .low(advice)
    }

    public func advice(freeBytes: Int64, format: CaptureFormat) -> StorageAdvice {
        let perShot = bytesPerShot(format)
        let shots = Int(max(freeBytes, 0) / perShot)
        let level: StorageAdvice.Level = if shots == 0 {
            .full
        } else if freeBytes < StoragePolicy.criticalBytes {
            .critical
        } else if freeBytes < StoragePolicy.lowBytes {
            .low
        } else {
            .plenty
        }
        return StorageAdvice(level: level, shotsLeft: shots, format: format)
    }
}
