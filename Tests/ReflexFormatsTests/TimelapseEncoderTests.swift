import ReflexCore
import ReflexTestSupport
import Testing
@testable import ReflexFormats

/// Timelapse movies from JPEGs, read back by libavformat and libavcodec: one frame a photo at
/// the rate asked, each photo fitted with its aspect kept, a photo that cannot be read left
/// out with its reason.
@Suite("Timelapse encoder")
struct TimelapseEncoderTests {
    static let size = VideoFormat(width: 320, height: 180, bitRate: 2_000_000)

    /// A JPEG of `width` × `height`: the test gradient, shifted by `index` so frames differ.
    static func jpeg(width: Int, height: Int, index: Int) throws -> [UInt8] {
        var rgb = TestPhotos.picture(width: width, height: height)
        for i in stride(from: 0, to: rgb.count, by: 3) { rgb[i] = rgb[i] &+ UInt8(truncatingIfNeeded: index * 8) }
        return try rgb.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), photo: TestPhotos.photo)
        }
    }

    @Test func everyPhotoIsAFrameAtTheRateAskedAndAnotherShapeIsFittedInBlack() throws {
        let folder = TemporaryFolder()
        var bytes: [UInt8] = []
        let encoder = try TimelapseEncoder(.libx264, size: Self.size, framesPerSecond: 25) { chunk in
            bytes.append(contentsOf: chunk)
            return 0
        }
        for index in 0..<11 { try encoder.add(jpeg: try Self.jpeg(width: 640, height: 360, index: index)) }
        // A 4:3 photo among 16:9 ones: fitted, black bars left and right.
        try encoder.add(jpeg: try Self.jpeg(width: 480, height: 360, index: 11))
        // A damaged file is left out, and said; the movie goes on.
        #expect(throws: TimelapseEncoder.Failure.self) { try encoder.add(jpeg: [0xFF, 0xD8, 0x00, 0x01]) }
        // One of the movie's own size: decoded straight into the picture.
        try encoder.add(jpeg: try Self.jpeg(width: 320, height: 180, index: 12))
        try encoder.finish()
        #expect(encoder.frames == 13)
        try folder.write(bytes, to: "timelapse.mp4")

        let reader = try MovieReader(path: folder.file("timelapse.mp4"))
        #expect(reader.streams == [.init(kind: "video", codec: "h264", width: 320, height: 180, sampleRate: 0, channels: 0)])
        let times = try reader.packetTimes(of: "video")
        #expect(times.count == 13)
        #expect(abs((times.last ?? 0) - 12.0 / 25) < 0.001, "one frame a photo at 25 fps")
        var edges: [Int] = []
        try MovieReader(path: folder.file("timelapse.mp4")).decodeVideo { picture in
            // The left edge's brightness, in the middle row: black only where a 4:3 photo sits.
            let pixel = picture.pixels[picture.width * picture.height / 2 + 4]
            edges.append(Int((pixel >> 16) & 0xFF) + Int((pixel >> 8) & 0xFF) + Int(pixel & 0xFF))
        }
        #expect(edges.count == 13)
        #expect(edges[11] < 60, "the 4:3 photo's black bar: \(edges)")
        #expect(edges[10] > 60 && edges[12] > 60, "16:9 photos fill the picture: \(edges)")
        #expect(abs(edges[12] - edges[10]) < 120, "the same picture either way: \(edges)")
    }

    @Test func theRatesOfferedAreTheFilmAndVideoOnes() {
        #expect(TimelapseEncoder.frameRates == [24, 25, 30])
    }
}
