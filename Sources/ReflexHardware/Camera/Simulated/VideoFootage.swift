import ReflexFormats
import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// Real footage as the simulated sensor's picture: each picture of a video file mosaicked to
/// the simulated sensor's RGGB 12-bit Bayer data, with its exposure, gain, zoom and noise, so
/// the whole camera (Auto exposure, the ISP, the analysis, the movie) runs on real scenes.
///
/// The video's values are taken as sRGB: made linear, a mid grey (18 %) is the simulated
/// scene's radiance 1, so a frame metered right at 1/100 s and gain 1 looks as the video did.
/// Its noise is the simulated sensor's (shot noise and amplified read noise).
public final class VideoFootage {
    private let reader: VideoFileReader
    public var width: Int { reader.width }
    public var height: Int { reader.height }
    public var framesPerSecond: Double { reader.framesPerSecond }
    public var path: String { reader.path }
    /// Pictures taken from the file so far, and how often it started again.
    public var picturesRead: Int { reader.picturesRead }
    public var loops: Int { reader.loops }

    /// Sample level above black and its noise's σ for each 8-bit value, for the exposure
    /// they were made for (made again when it changes: 256 entries, not a pixel each).
    private var signal = [Float](repeating: 0, count: 256)
    private var sigma = [Float](repeating: 0, count: 256)
    private var tablesMadeFor: ExposureSetting?
    /// The column each sensor column reads, for the zoom it was made for.
    private var columns: [Int] = []
    private var columnsZoom = 0.0

    public init(path: String) throws(MovieError) {
        reader = try VideoFileReader(path: path)
    }

    /// Moves `pictures` pictures on (the sensor's frames since the last taken: a late
    /// reader loses pictures, as it would a real sensor's frames). The first call gives the
    /// file's first picture: the frame with sequence number N shows picture N − 1 (counted
    /// from 0 over every pass), so a benchmark knows which picture each frame showed.
    /// The pictures passed over are decoded but not converted, so a late sensor thread
    /// catches up at the decoder's pace.
    public func advance(by pictures: Int) throws(MovieError) {
        for _ in 1..<max(pictures, 1) { try reader.skip() }
        try reader.next()
    }

    /// The current picture as a `layout` (the footage's size) Bayer frame at `setting`, the
    /// middle 1/`zoom` of it magnified to the whole frame.
    public func render(into buffer: UnsafeMutableRawPointer, layout: RawLayout, setting: ExposureSetting, zoom: Double,
                       frameNumber: UInt64, noise: Bool = true) {
        precondition(layout.format == SimulatedScene.format && layout.width == width && layout.height == height,
                     "the footage makes frames of its own size, RGGB 12-bit")
        makeTables(for: setting, noise: noise)
        makeColumns(zoom: zoom)
        let black = Float(SimulatedScene.blackLevel), white = Float(SimulatedScene.whiteLevel)
        var random = SplitMix(frame: frameNumber, stream: 7)
        let mask = SimulatedScene.noiseTableSize - 1
        let centreY = Double(height) / 2
        reader.rgb.withUnsafeBufferPointer { rgb in
            signal.withUnsafeBufferPointer { signal in
                sigma.withUnsafeBufferPointer { sigma in
                    columns.withUnsafeBufferPointer { columns in
                        SimulatedScene.noiseTable.withUnsafeBufferPointer { table in
                            for y in 0..<height {
                                let sourceY = min(max(Int(centreY + (Double(y) + 0.5 - centreY) / zoom), 0), height - 1)
                                let source = rgb.baseAddress! + sourceY * width * 3
                                let row = (buffer + y * layout.bytesPerLine).assumingMemoryBound(to: UInt16.self)
                                let start = Int(truncatingIfNeeded: random.next() & UInt64(mask))
                                // RGGB: red and green on even rows, green and blue on odd ones.
                                let evenChannel = y & 1 == 0 ? 0 : 1, oddChannel = evenChannel + 1
                                for x in 0..<width {
                                    let value = Int(source[columns[x] * 3 + (x & 1 == 0 ? evenChannel : oddChannel)])
                                    let level = black + signal[value] + table[(start + x) & mask] * sigma[value]
                                    row[x] = UInt16(min(max(level, 0), white) + 0.5)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private func makeTables(for setting: ExposureSetting, noise: Bool) {
        guard tablesMadeFor != setting else { return }
        tablesMadeFor = setting
        let scale = SimulatedScene.sensitivity * setting.exposure * setting.analogGain / 0.18
        let readNoise = 2.0 * setting.analogGain
        for value in 0..<256 {
            let level = Self.linear(Double(value) / 255) * scale
            signal[value] = Float(level)
            sigma[value] = noise ? Float((level * setting.analogGain).squareRoot() * 0.3 + readNoise) : 0
        }
    }

    private func makeColumns(zoom: Double) {
        guard columns.count != width || columnsZoom != zoom else { return }
        columnsZoom = zoom
        let centre = Double(width) / 2
        columns = (0..<width).map { x in min(max(Int(centre + (Double(x) + 0.5 - centre) / zoom), 0), width - 1) }
    }

    /// sRGB's transfer undone: the light a value stands for, 0…1.
    static func linear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
}
