import CFFmpeg

/// A picture in a movie encoder's 4:2:0 (Y, then U, then V, each plane packed, in the
/// encoder's `VideoColour`): filled directly (a JPEG's own planes) or converted from XRGB by
/// libswscale with the encoder's settings. Made on a thread of its own, it spares the
/// encoder's thread the work (a timelapse's photos are made while the last is encoded).
public final class YUVPicture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let colour: VideoColour
    public var planes: [UInt8]
    private let converter: OpaquePointer?

    /// `width` and `height` even.
    public init(width: Int, height: Int, colour: VideoColour) {
        (self.width, self.height, self.colour) = (width, height, colour)
        planes = [UInt8](repeating: 0, count: width * height * 3 / 2)
        converter = sws_getContext(Int32(width), Int32(height), AV_PIX_FMT_BGR0, Int32(width), Int32(height), AV_PIX_FMT_YUV420P,
                                   SWS_POINT, nil, nil, nil)
        if let converter {
            sws_setColorspaceDetails(converter, colour.coefficients, 1, colour.coefficients, colour.fullRange, 0, 1 << 16, 1 << 16)
        }
    }

    deinit { sws_freeContext(converter) }

    /// `xrgb` (`width` × `height` words) converted.
    public func convert(_ xrgb: UnsafePointer<UInt32>) {
        guard let converter else { return }
        let (width, height) = (width, height)
        planes.withUnsafeMutableBufferPointer { planes in
            let base = planes.baseAddress!
            var destinations: [UnsafeMutablePointer<UInt8>?] = [base, base + width * height, base + width * height * 5 / 4, nil]
            var strides: [Int32] = [Int32(width), Int32(width / 2), Int32(width / 2), 0]
            var source: UnsafePointer<UInt8>? = UnsafeRawPointer(xrgb).assumingMemoryBound(to: UInt8.self)
            var sourceStride = Int32(width * 4)
            sws_scale(converter, &source, &sourceStride, 0, Int32(height), &destinations, &strides)
        }
    }
}
