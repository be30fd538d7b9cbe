import CJPEGDecoder

/// Motion-JPEG frames (a UVC webcam's usual format) decoded for the preview with
/// libjpeg-turbo at half size, straight into XRGB8888 — the same half-size picture the ISP
/// makes from a Bayer frame, so only the scaling is left. Half-size decoding skips most of
/// the inverse DCT, which makes it several times cheaper than a full decode.
///
/// The decoding is in `Sources/CJPEGDecoder`: libjpeg's API with a memory manager that keeps
/// each image's working memory for the next, so a stream's frames allocate nothing once the
/// first has been decoded (and gives back what no frame has needed for a couple of seconds).
public final class JPEGPreviewDecoder: @unchecked Sendable {
    private let decoder: OpaquePointer

    /// `memoryLimit`: the most working memory the decoder may hold, in bytes (a frame that
    /// needs more fails); nil for libjpeg's own limit, JPEGMEM in the environment or none.
    public init?(memoryLimit: Int? = nil) {
        guard let decoder = reflex_jpeg_decoder_create() else { return nil }
        self.decoder = decoder
        if let memoryLimit { reflex_jpeg_decoder_limit_memory(decoder, max(memoryLimit, 1)) }
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
            return .failure(DecodeError(copying: reflex_jpeg_decoder_message(decoder)))
        }
        return .success(())
    }

    /// libjpeg's message, kept in the error itself: a camera that sends damaged frames now and
    /// then must not cost the sensor thread an allocation for each (the text is made only when
    /// it is read, to be logged).
    public struct DecodeError: Error, CustomStringConvertible, Sendable {
        /// Room for libjpeg's longest message (JMSG_LENGTH_MAX), NUL-terminated.
        private var bytes = InlineArray<200, UInt8>(repeating: 0)

        init(copying message: UnsafePointer<CChar>) {
            var index = 0
            while index < bytes.count - 1, message[index] != 0 {
                bytes[index] = UInt8(bitPattern: message[index])
                index += 1
            }
        }

        public var message: String {
            var length = 0
            while length < bytes.count, bytes[length] != 0 { length += 1 }
            return bytes.span.withUnsafeBufferPointer { String(decoding: $0.prefix(length), as: UTF8.self) }
        }

        public var description: String { message }
    }
}
