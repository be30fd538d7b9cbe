import CTurboJPEG

/// Motion-JPEG frames (a UVC webcam's usual format) decoded for the preview with
/// libjpeg-turbo at half size, straight into XRGB8888 — the same half-size picture the ISP
/// makes from a Bayer frame, so only the scaling is left. Half-size decoding skips most of
/// the inverse DCT, which makes it several times cheaper than a full decode.
public final class JPEGPreviewDecoder: @unchecked Sendable {
    private let handle: tjhandle

    public init?() {
        guard let handle = tjInitDecompress() else { return nil }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// The half-size picture of a `width` × `height` frame.
    public static func halfSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + 1) / 2, (height + 1) / 2)
    }

    /// Decodes one frame into `pixels` (room for the half-size picture); returns false with
    /// libjpeg-turbo's message for a damaged frame (a UVC camera sends some now and then).
    public func decodeHalfSize(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int,
                               into pixels: UnsafeMutableRawPointer) -> Result<Void, DecodeError> {
        let (halfWidth, halfHeight) = JPEGPreviewDecoder.halfSize(width: width, height: height)
        // A frame of another size would decode at another scale and leave pixels unwritten.
        var frameWidth: Int32 = 0, frameHeight: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                  &frameWidth, &frameHeight, &subsampling, &colourspace) == 0 else {
            return .failure(DecodeError(message: String(cString: tjGetErrorStr2(handle))))
        }
        guard Int(frameWidth) == width, Int(frameHeight) == height else {
            return .failure(DecodeError(message: "a \(frameWidth)x\(frameHeight) frame in a \(width)x\(height) stream"))
        }
        let status = tjDecompress2(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                   pixels.assumingMemoryBound(to: UInt8.self), Int32(halfWidth), Int32(halfWidth * 4),
                                   Int32(halfHeight), Int32(TJPF_BGRX.rawValue), REFLEX_TJFLAG_FASTDCT)
        // A warning (a missing end marker, which some webcams always leave out) still gives a
        // whole picture.
        guard status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
            return .failure(DecodeError(message: String(cString: tjGetErrorStr2(handle))))
        }
        return .success(())
    }

    public struct DecodeError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }
}
