import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Writes a bench clip: its pictures through the camera's own H.264 encoder and MP4 writer
/// (`SkierClip.fileName`, seen only once whole), and each picture's true box
/// (`SkierClip.truthName`, a `frame,x,y,w,h` line a picture).
final class ClipWriter {
    let width: Int, height: Int
    private let encoder: VideoEncoder
    private let writer: MovieWriter
    private let stream: Int32
    private let file: FileDescriptor
    private let path: String, truthPath: String
    private(set) var truths: [PixelRect] = []

    init(folder: String, width: Int, height: Int, framesPerSecond: Int) throws {
        (self.width, self.height) = (width, height)
        let format = VideoFormat(width: width, height: height, framesPerSecond: framesPerSecond, bitRate: 8_000_000)
        // (Repeatable: a test scores the same clip on every run and every machine.)
        encoder = try VideoEncoder(.libx264Repeatable, format: format, globalHeader: true)
        path = folder + "/" + SkierClip.fileName
        truthPath = folder + "/" + SkierClip.truthName
        file = try FileDescriptor(opening: path + ".partial", O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
        let descriptor = file.rawValue
        writer = try MovieWriter { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            return Glibc.write(descriptor, base, bytes.count) == bytes.count ? 0 : errno
        }
        stream = try writer.addStream(for: encoder.context!)
        try writer.start()
    }

    /// The next picture (XRGB, `width` a row) and its subject's true box.
    func add(_ picture: [UInt32], truth: PixelRect) throws {
        try picture.withUnsafeBufferPointer { pixels in
            _ = try encoder.encode(xrgb: pixels.baseAddress!, stride: width, index: Int64(truths.count), into: writer, stream: stream)
        }
        truths.append(truth)
    }

    /// The movie finished and made visible, the truth written beside it.
    func finish() throws {
        try encoder.finish(into: writer, stream: stream)
        try writer.finish()
        guard fsync(file.rawValue) == 0, rename(path + ".partial", path) == 0 else {
            throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        var csv = "frame,x,y,w,h\n"
        for (index, box) in truths.enumerated() { csv += "\(index),\(box.x),\(box.y),\(box.width),\(box.height)\n" }
        try AtomicFile.write(Array(csv.utf8), to: truthPath)
    }

    /// A clip picture's pixel from 0…255 channels (clamped).
    static func xrgb(_ r: Double, _ g: Double, _ b: Double) -> UInt32 {
        func channel(_ v: Double) -> UInt32 { UInt32(min(max(v, 0), 255)) }
        return 0xFF00_0000 | channel(r) << 16 | channel(g) << 8 | channel(b)
    }
}
