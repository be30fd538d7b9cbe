import CFFmpeg

/// A decoded picture (libavcodec's frame, in whatever format the decoder gave) scaled by
/// libswscale into one packed plane: the file sensor's RGB, review's panel XRGB. The scaler is
/// made once and kept while the picture's size and format stay.
struct DecodedPictureScaler {
    private var context: OpaquePointer?
    let width: Int
    let height: Int
    let format: AVPixelFormat
    let bytesPerPixel: Int

    init(width: Int, height: Int, format: AVPixelFormat, bytesPerPixel: Int) {
        (self.width, self.height, self.format, self.bytesPerPixel) = (width, height, format, bytesPerPixel)
    }

    /// `frame`'s picture into `destination` (`width` × `height` pixels, rows packed).
    mutating func scale(_ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutableRawPointer) {
        let picture = frame.pointee
        guard picture.width > 0, picture.height > 0 else { return }
        context = sws_getCachedContext(context, picture.width, picture.height, AVPixelFormat(picture.format), Int32(width),
                                       Int32(height), format, SWS_BILINEAR, nil, nil, nil)
        var target: UnsafeMutablePointer<UInt8>? = destination.assumingMemoryBound(to: UInt8.self)
        var stride = Int32(width * bytesPerPixel)
        withUnsafePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sources in
                withUnsafePointer(to: &frame.pointee.linesize) { sizes in
                    sizes.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        _ = sws_scale(context, sources, strides, 0, picture.height, &target, &stride)
                    }
                }
            }
        }
    }

    /// Gives the scaler back (its owner's deinit).
    mutating func free() {
        sws_freeContext(context)
        context = nil
    }
}
