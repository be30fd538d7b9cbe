import CTurboJPEG
import ReflexCore

/// A timelapse movie made of photos (an interval run's JPEGs): each photo one frame, upright,
/// fitted inside the movie's picture with its aspect kept (black around it where the two
/// differ), at 24, 25 or 30 frames a second, encoded by the camera's own movie encoder (the
/// board's hardware H.264, or libx264) into the camera's fragmented MP4, silent. One photo at
/// a time, so a caller on a low-priority thread can say its progress; a photo that cannot be
/// read is refused and the movie goes on without it.
public final class TimelapseEncoder {
    public static let frameRates = [24, 25, 30]

    /// A photo the movie could not take (the movie goes on), or the movie itself failing.
    public enum Failure: Error, CustomStringConvertible {
        case photo(String)
        case movie(MovieError)

        public var description: String {
            switch self {
            case .photo(let why): "photo left out: \(why)"
            case .movie(let error): "\(error)"
            }
        }
    }

    public let format: VideoFormat
    private let writer: MovieWriter
    private let encoder: VideoEncoder
    private let stream: Int32
    /// The picture `add(jpeg:)` fills (a caller decoding ahead fills its own).
    private lazy var picture = TimelapseFrame(width: format.width, height: format.height)
    public private(set) var frames = 0

    /// A movie of `size`'s picture (the camera's 1080p by default) at `framesPerSecond`, its
    /// bytes to `output` as they are made.
    public init(_ choice: VideoEncoderChoice, size: VideoFormat = .fullHD, framesPerSecond: Int,
                output: @escaping MovieWriter.Output) throws(MovieError) {
        format = VideoFormat(width: size.width, height: size.height, framesPerSecond: framesPerSecond, bitRate: size.bitRate)
        writer = try MovieWriter(output: output)
        // (In the JPEGs' own colours: their planes go in as decoded.)
        encoder = try VideoEncoder(choice, format: format, globalHeader: writer.needsGlobalHeader, colour: TimelapseFrame.colour)
        stream = try writer.addStream(for: encoder.context!)
        try writer.start()
    }

    /// The next frame: `jpeg` fitted into the picture. True when a fragment ended before it
    /// (the caller may make the file durable up to there).
    @discardableResult
    public func add(jpeg: [UInt8]) throws(Failure) -> Bool {
        try picture.fill(from: jpeg)
        return try add(picture)
    }

    /// The next frame: a picture already made of a photo (of the movie's size).
    @discardableResult
    public func add(_ frame: TimelapseFrame) throws(Failure) -> Bool {
        precondition(frame.width == format.width && frame.height == format.height, "a frame of the movie's size")
        defer { frames += 1 }
        do {
            return try encoder.encode(frame.yuv, index: Int64(frames), into: writer, stream: stream)
        } catch {
            throw .movie(error)
        }
    }

    /// Ends the movie: the frames the encoder held, the last fragment and the index.
    public func finish() throws(MovieError) {
        try encoder.finish(into: writer, stream: stream)
        try writer.finish()
    }

    /// Hands every byte made so far to the output (the caller then syncs it).
    public func flush() throws(MovieError) { try writer.flush() }
}
