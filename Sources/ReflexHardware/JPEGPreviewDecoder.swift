import CJPEGDecoder

/// Motion-JPEG frames (a UVC webcam's usual format) decoded for the preview with
/// libjpeg-turbo at half size, straight into XRGB8888 — the same half-size picture the ISP
/// makes from a Bayer frame, so only the scaling is left. Half-size decoding skips most of
/// the inverse DCT, which makes it several times cheaper than a full decode.
///
/// The decoding is in `Sources/CJPEGDecoder`: libjpeg's API with a memory manager that keeps
/// each image's working memory for the next, so a stream's frames allocate nothing once the
/// first has been decoded.
public final class JPEGPreviewDecoder: @unchecked Sendable {
    private let decoder: OpaquePointer

    public init?() {
        guard let decoder = reflex_jpeg_decoder_create() else { return nil }
        self.decoder = decoder
    }

    deinit { reflex_jpeg_decoder_destroy(decoder) }

    /// The half-size picture of a `width` × `height` frame.
    public static func halfSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + 1) / 2, (height + 1) / 2)
    }

    /// Bytes of working memory the decoder keeps for the next frames.
    public var retainedBytes: Int { reflex_jpeg_decoder_pool_bytes(decoder) }

    /// Decodes one frame into `pixels` (room for the half-size picture), or fails with
    /// libjpeg's message for a damaged frame (a UVC camera sends some now and then: data lost
    /// or corrupt, which libjpeg would fill in grey) or a frame of another size than the
    /// stream's; `pixels` may then hold part of it. A missing end marker, which some webcams
    /// always leave out, is not damage.
    public func decodeHalfSize(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int,
                               into pixels: UnsafeMutableRawPointer) -> Result<Void, DecodeError> {
        let halfWidth = JPEGPreviewDecoder.halfSize(width: width, height: height).width
        let status = reflex_jpeg_decode_half(decoder, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), jpeg.count,
                                             Int32(width), Int32(height), pixels.assumingMemoryBound(to: UInt8.self),
                                             halfWidth * 4)
        guard Int(status) != Int(REFLEX_JPEG_FAILED) else {
            return .failure(DecodeError(message: String(cString: reflex_jpeg_decoder_message(decoder))))
        }
        return .success(())
    }

    public struct DecodeError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }
}
