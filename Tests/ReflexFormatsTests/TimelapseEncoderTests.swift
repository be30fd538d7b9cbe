import Foundation
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
        try #require(edges.count == 13)
        #expect(edges[11] < 60, "the 4:3 photo's black bar: \(edges)")
        #expect(edges[10] > 60 && edges[12] > 60, "16:9 photos fill the picture: \(edges)")
        #expect(abs(edges[12] - edges[10]) < 120, "the same picture either way: \(edges)")
    }

    @Test func theRatesOfferedAreTheFilmAndVideoOnes() {
        #expect(TimelapseEncoder.frameRates == [24, 25, 30])
    }

    /// The movie keeps the JPEGs' own colours (BT.601, full range, tagged so): ffmpeg, reading
    /// the tags as any player does, gives back the photo's colours.
    @Test(.tags(.externalTool)) func aPlayerSeesThePhotosOwnColours() throws {
        let folder = TemporaryFolder()
        let (width, height) = (320, 180)
        let colours: [(UInt8, UInt8, UInt8)] = [(200, 80, 40), (30, 160, 220)]
        var bytes: [UInt8] = []
        let encoder = try TimelapseEncoder(.libx264Batch, size: Self.size, framesPerSecond: 24) { chunk in
            bytes.append(contentsOf: chunk)
            return 0
        }
        for (red, green, blue) in colours {
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for i in stride(from: 0, to: rgb.count, by: 3) { (rgb[i], rgb[i + 1], rgb[i + 2]) = (red, green, blue) }
            let jpeg = try rgb.withUnsafeBufferPointer {
                try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), photo: TestPhotos.photo)
            }
            try encoder.add(jpeg: jpeg)
        }
        try encoder.finish()
        let movie = try folder.write(bytes, to: "colours.mp4")
        for (index, colour) in colours.enumerated() {
            let picture = folder.file("frame\(index).ppm")
            _ = try ProgramRun(["ffmpeg", "-v", "error", "-y", "-i", movie, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                "-pix_fmt", "rgb24", picture])
            let ppm = try #require(FileManager.default.contents(atPath: picture).map { [UInt8]($0) }, "ffmpeg wrote frame \(index)")
            // "P6\n320 180\n255\n", then the pixels: the middle one.
            let header = "P6\n\(width) \(height)\n255\n".utf8.count
            let middle = header + ((height / 2) * width + width / 2) * 3
            try #require(ppm.count >= header + width * height * 3)
            let seen = (Int(ppm[middle]), Int(ppm[middle + 1]), Int(ppm[middle + 2]))
            #expect(abs(seen.0 - Int(colour.0)) <= 6 && abs(seen.1 - Int(colour.1)) <= 6 && abs(seen.2 - Int(colour.2)) <= 6,
                    "frame \(index): \(seen) for \(colour)")
        }
    }
}
