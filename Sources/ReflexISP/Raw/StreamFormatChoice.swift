/// Which of a camera's formats the preview streams: raw Bayer when there is one (the ISP
/// and DNG want the sensor's own data), the deepest up to 12 bits first (16-bit containers
/// cost more bandwidth for the same sensor), packed before unpacked; else YUYV.
public enum StreamFormatChoice {
    public static let yuyv: UInt32 = 0x5659_5559  // "YUYV"
    public static let motionJPEG: UInt32 = 0x4750_4A4D  // "MJPG"
    public static let jpeg: UInt32 = 0x4745_504A  // "JPEG"

    public static func best(of fourCCs: [UInt32]) -> UInt32? {
        let raw = fourCCs.compactMap { code in RawFormat(v4l2FourCC: code).map { (code, $0) } }
        func rank(_ format: RawFormat) -> Int {
            let depth = [12: 40, 10: 30, 16: 20, 8: 10][format.bitsPerSample] ?? 0
            let packed = format.packing == .csi2Packed10 || format.packing == .csi2Packed12 ? 1 : 0
            let rggb = format.cfa == .rggb ? 1 : 0  // ties: the order most sensors use
            return depth * 4 + packed * 2 + rggb
        }
        if let best = raw.max(by: { rank($0.1) < rank($1.1) }) { return best.0 }
        // Then a webcam's own formats: YUYV as it comes, else Motion-JPEG decoded at half size.
        return [yuyv, motionJPEG, jpeg].first { fourCCs.contains($0) }
    }
}
