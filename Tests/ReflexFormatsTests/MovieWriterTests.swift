import ReflexTestSupport
import Glibc
import ReflexCore
import Testing
@testable import ReflexFormats

/// Movies made by libx264 into fragmented MP4, read back by libavformat and libavcodec.
@Suite("Movie writer")
struct MovieWriterTests {
    static let format = VideoFormat(width: 320, height: 180, framesPerSecond: 30, bitRate: 2_000_000)

    /// A picture that moves with `index`: bars and a gradient, so the encoder has work to do.
    static func picture(_ index: Int, width: Int = format.width, height: Int = format.height) -> [UInt32] {
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32((x + index * 4) & 0xFF), g = UInt32((y * 255) / height), b = UInt32(((x / 40) % 2) * 200)
                pixels[y * width + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return pixels
    }

    /// `frames` pictures encoded into a file in `folder`; its bytes.
    static func record(frames: Int, in folder: TemporaryFolder, name: String = "movie.mp4") throws -> [UInt8] {
        var bytes: [UInt8] = []
        let writer = try MovieWriter { chunk in
            bytes.append(contentsOf: chunk)
            return 0
        }
        let encoder = try VideoEncoder(.libx264, format: format, globalHeader: writer.needsGlobalHeader)
        let stream = try writer.addStream(for: encoder.context!)
        try writer.start()
        for index in 0..<frames {
            let pixels = picture(index)
            try pixels.withUnsafeBufferPointer {
                _ = try encoder.encode(xrgb: $0.baseAddress!, stride: format.width, index: Int64(index), into: writer,
                                       stream: stream)
            }
        }
        try encoder.finish(into: writer, stream: stream)
        try writer.finish()
        try folder.write(bytes, to: name)
        return bytes
    }

    static func boxes(_ name: String, in bytes: [UInt8]) -> Int {
        let tag = Array(name.utf8)
        var count = 0
        var i = 0
        while i + 4 <= bytes.count {
            if bytes[i] == tag[0] && bytes[i + 1] == tag[1] && bytes[i + 2] == tag[2] && bytes[i + 3] == tag[3] { count += 1 }
            i += 1
        }
        return count
    }

    @Test func aRecordingReadsBackAsH264OfItsSizeWithEveryFrameInOrder() throws {
        let folder = TemporaryFolder()
        let bytes = try Self.record(frames: 75, in: folder)
        let reader = try MovieReader(path: folder.file("movie.mp4"))
        #expect(reader.streams == [.init(kind: "video", codec: "h264", width: 320, height: 180, sampleRate: 0, channels: 0)])
        let times = try reader.packetTimes(of: "video")
        #expect(times.count == 75)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs((times.last ?? 0) - 74.0 / 30) < 0.001)
        // Fragmented: an empty moov, then a fragment a second (keyframes at 0, 1 s, 2 s).
        #expect(Self.boxes("moof", in: bytes) == 3)
    }

    @Test func decodedFramesMatchThePicturesEncoded() throws {
        let folder = TemporaryFolder()
        _ = try Self.record(frames: 40, in: folder)
        var worst = 99.0, count = 0
        try MovieReader(path: folder.file("movie.mp4")).decodeVideo { picture in
            #expect(picture.width == 320 && picture.height == 180)
            worst = min(worst, PictureDifference.peakSignalToNoise(picture.pixels, Self.picture(count)))
            count += 1
        }
        #expect(count == 40)
        #expect(worst >= 30, "worst frame \(worst) dB")
    }

    /// A power cut mid-recording leaves the fragments written before it: a file cut where its
    /// third fragment starts plays the first two; cut in the middle of the third, those and
    /// what of the third arrived.
    @Test func aFileCutShortPlaysUpToItsLastWholeFragment() throws {
        let folder = TemporaryFolder()
        let bytes = try Self.record(frames: 90, in: folder)
        let moof = Array("moof".utf8)
        var starts: [Int] = []
        for i in 4..<(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == moof { starts.append(i - 4) }
        try #require(starts.count == 3)
        try folder.write(Array(bytes[..<starts[2]]), to: "cut.mp4")
        #expect(try MovieReader(path: folder.file("cut.mp4")).packetTimes(of: "video").count == 60)
        let cut = starts[2] + (bytes.count - starts[2]) / 2
        try folder.write(Array(bytes[..<cut]), to: "cut-later.mp4")
        let times = try MovieReader(path: folder.file("cut-later.mp4")).packetTimes(of: "video")
        #expect(times.count >= 60 && times.count < 90)
    }

    @Test func theHardwareEncoderIsTriedFirstAndLibx264IsAlwaysThere() {
        #expect(VideoEncoderChoice.candidates(memoryToMemory: "/dev/video11")
                == [.v4l2MemoryToMemory(device: "/dev/video11"), .libx264])
        #expect(VideoEncoderChoice.candidates(memoryToMemory: nil) == [.libx264])
    }

    /// Where the board has no M2M encoder, opening FFmpeg's wrapper fails: the caller goes on
    /// to libx264 (and says so).
    @Test func theMemoryToMemoryEncoderWithoutADeviceFailsToOpen() {
        #expect(throws: MovieError.self) {
            _ = try VideoEncoder(.v4l2MemoryToMemory(device: "/dev/null"), format: Self.format, globalHeader: true)
        }
    }

    @Test func aFullCardIsAnErrorThatSaysSo() throws {
        var allowed = 2000
        let writer = try MovieWriter { chunk in
            allowed -= chunk.count
            return allowed < 0 ? ENOSPC : 0
        }
        let encoder = try VideoEncoder(.libx264, format: Self.format, globalHeader: writer.needsGlobalHeader)
        let stream = try writer.addStream(for: encoder.context!)
        try writer.start()
        var failure: MovieError?
        for index in 0..<90 where failure == nil {
            do {
                try Self.picture(index).withUnsafeBufferPointer {
                    _ = try encoder.encode(xrgb: $0.baseAddress!, stride: Self.format.width, index: Int64(index),
                                           into: writer, stream: stream)
                }
                try writer.flush()
                if index == 89 { try writer.finish() }
            } catch let error as MovieError {
                failure = error
            }
        }
        #expect(failure?.isOutOfSpace == true, "\(String(describing: failure))")
    }
}

/// Sound beside the picture: AAC from 16-bit samples, on the picture's clock.
@Suite("Movie sound")
struct MovieSoundTests {
    /// Two seconds of video and of a 1 kHz tone (mono, 48 kHz) that starts `soundStart` samples in.
    static func record(soundStart: Int64, gapAt gap: Int? = nil, in folder: TemporaryFolder) throws -> String {
        var bytes: [UInt8] = []
        let writer = try MovieWriter { chunk in
            bytes.append(contentsOf: chunk)
            return 0
        }
        let format = MovieWriterTests.format
        let video = try VideoEncoder(.libx264, format: format, globalHeader: writer.needsGlobalHeader)
        let sound = try AudioEncoder(sampleRate: 48_000, channels: 1, globalHeader: writer.needsGlobalHeader)
        let videoStream = try writer.addStream(for: video.context!)
        let soundStream = try writer.addStream(for: sound.context!)
        try writer.start()
        var index = soundStart
        let tone = (0..<960).map { Int16(12_000 * sin(Double($0) * 2 * .pi / 48)) }  // 20 ms chunks
        for frame in 0..<60 {
            try MovieWriterTests.picture(frame).withUnsafeBufferPointer {
                _ = try video.encode(xrgb: $0.baseAddress!, stride: format.width, index: Int64(frame), into: writer,
                                     stream: videoStream)
            }
            // Sound up to this frame's end, in 20 ms chunks (a gap: one chunk missing).
            while index < Int64(frame + 1) * 1600 {
                if gap.map({ Int(index / 960) != $0 }) ?? true {
                    try tone.withUnsafeBufferPointer {
                        try sound.add($0.baseAddress!, count: 960, index: index, into: writer, stream: soundStream)
                    }
                }
                index += 960
            }
        }
        try video.finish(into: writer, stream: videoStream)
        try sound.finish(into: writer, stream: soundStream)
        try writer.finish()
        return try folder.write(bytes, to: "sound.mp4")
    }

    @Test func aMovieHasAnAACTrackOnThePicturesClock() throws {
        let folder = TemporaryFolder()
        let path = try Self.record(soundStart: 4800, in: folder)
        let reader = try MovieReader(path: path)
        try #require(reader.streams.map(\.kind) == ["video", "audio"])
        #expect(reader.streams[1] == .init(kind: "audio", codec: "aac", width: 0, height: 0, sampleRate: 48_000, channels: 1))
        let times = try MovieReader(path: path).packetTimes(of: "audio")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // The track starts with the picture (silence until the sound came, 0.1 s in) and runs
        // to the picture's end (2 s), every frame following the last: sample k is at k / 48000 s.
        #expect(abs(times.first ?? -1) < 0.03, "first sound packet at \(times.first ?? -1) s")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1024.0 / 48_000) < 0.001 })
        #expect(abs((times.last ?? 0) + 1024.0 / 48_000 - 2.0) < 0.05, "last sound packet at \(times.last ?? 0) s")
    }

    @Test func aGapInTheSoundIsFilledSoTheTrackRunsOn() throws {
        let folder = TemporaryFolder()
        let path = try Self.record(soundStart: 0, gapAt: 30, in: folder)
        let times = try MovieReader(path: path).packetTimes(of: "audio")
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { abs($0 - 1024.0 / 48_000) < 0.001 }, "every frame follows the last: \(steps.max() ?? 0)")
    }
}

extension MovieWriterTests {
    /// A slow camera (5 frames a second into a 30 fps movie) still gets a fragment a second.
    @Test func aSlowCameraStillGetsAFragmentASecond() throws {
        var bytes: [UInt8] = []
        let writer = try MovieWriter { chunk in
            bytes.append(contentsOf: chunk)
            return 0
        }
        let encoder = try VideoEncoder(.libx264, format: Self.format, globalHeader: writer.needsGlobalHeader)
        let stream = try writer.addStream(for: encoder.context!)
        try writer.start()
        for frame in 0..<20 {
            try Self.picture(frame).withUnsafeBufferPointer {
                _ = try encoder.encode(xrgb: $0.baseAddress!, stride: Self.format.width, index: Int64(frame * 6),
                                       into: writer, stream: stream)
            }
        }
        try encoder.finish(into: writer, stream: stream)
        try writer.finish()
        #expect(encoder.keyframes == 4)
        #expect(Self.boxes("moof", in: bytes) == 4)
    }
}
