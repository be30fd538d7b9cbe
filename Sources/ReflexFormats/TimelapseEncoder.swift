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
    /// The movie's picture (XRGB), the same memory every frame: black where no photo covers it.
    private var canvas: [UInt32]
    /// Where the last photo was placed: a photo of another shape clears the black around it.
    private var lastPlace: PixelRect?
    public private(set) var frames = 0
    /// TurboJPEG's decoder, kept for every photo.
    private let decompressor: tjhandle?

    /// A movie of `size`'s picture (the camera's 1080p by default) at `framesPerSecond`, its
    /// bytes to `output` as they are made.
    public init(_ choice: VideoEncoderChoice, size: VideoFormat = .fullHD, framesPerSecond: Int,
                output: @escaping MovieWriter.Output) throws(MovieError) {
        format = VideoFormat(width: size.width, height: size.height, framesPerSecond: framesPerSecond, bitRate: size.bitRate)
        writer = try MovieWriter(output: output)
        encoder = try VideoEncoder(choice, format: format, globalHeader: writer.needsGlobalHeader)
        stream = try writer.addStream(for: encoder.context!)
        try writer.start()
        canvas = [UInt32](repeating: 0xFF00_0000, count: format.width * format.height)
        decompressor = tjInitDecompress()
    }

    deinit { if let decompressor { tjDestroy(decompressor) } }

    /// The next frame: `jpeg` fitted into the picture. True when a fragment ended before it
    /// (the caller may make the file durable up to there).
    @discardableResult
    public func add(jpeg: [UInt8]) throws(Failure) -> Bool {
        // A photo of the movie's own size, upright (the camera's 1080p JPEGs), is decoded
        // straight into the picture; any other is fitted as review fits it.
        if !decodeInPlace(jpeg) {
            let picture: ReviewPicture
            do {
                picture = try ReviewPicture.jpeg(jpeg, fitting: format.width, format.height)
            } catch {
                throw .photo(error.description)
            }
            place(picture)
        }
        let (width, index) = (format.width, Int64(frames))
        let result = canvas.withUnsafeBufferPointer { pixels in
            Result { () throws(MovieError) in
                try encoder.encode(xrgb: pixels.baseAddress!, stride: width, index: index, into: writer, stream: stream)
            }
        }
        frames += 1
        do {
            return try result.get()
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

    /// Decodes `jpeg` into the canvas as XRGB when it is the movie's size and upright; false
    /// otherwise (or when it cannot be decoded: the fitting path says why).
    private func decodeInPlace(_ jpeg: [UInt8]) -> Bool {
        guard let decompressor else { return false }
        var (width, height, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(decompressor, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colourspace) == 0,
              Int(width) == format.width, Int(height) == format.height,
              (ExifOrientationReader.orientation(ofJPEG: jpeg) ?? .upright) == .upright else { return false }
        lastPlace = PixelRect(x: 0, y: 0, width: format.width, height: format.height)
        let (rowBytes, flags) = (Int32(format.width * 4), Int32(TJFLAG_FASTDCT))
        let status = canvas.withUnsafeMutableBytes { pixels in
            // (XRGB words, little-endian: B, G, R, X in memory.)
            tjDecompress2(decompressor, jpeg, UInt(jpeg.count), pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                          width, rowBytes, height, Int32(TJPF_BGRX.rawValue), flags)
        }
        return status == 0 || tjGetErrorCode(decompressor) == Int32(TJERR_WARNING.rawValue)
    }

    /// `picture` in the middle of the canvas; the black around it made again where the last
    /// photo was of another shape.
    private func place(_ picture: ReviewPicture) {
        let place = PixelRect(x: 0, y: 0, width: format.width, height: format.height)
            .fitting(sourceWidth: picture.width, sourceHeight: picture.height)
        let (width, height) = (min(picture.width, place.width), min(picture.height, place.height))
        if lastPlace != place {
            for index in canvas.indices { canvas[index] = 0xFF00_0000 }
            lastPlace = place
        }
        canvas.withUnsafeMutableBufferPointer { canvas in
            picture.pixels.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    let into = canvas.baseAddress! + (place.y + row) * format.width + place.x
                    into.update(from: source.baseAddress! + row * picture.width, count: width)
                }
            }
        }
    }
}
