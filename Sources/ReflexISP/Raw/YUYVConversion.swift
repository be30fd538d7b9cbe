import ReflexCore

/// A YUYV frame (a UVC camera's usual format; BT.601, limited range) as 8-bit RGB at full
/// resolution, for a photo: each pixel its own luma, the chroma of its pair. The camera has
/// done white balance and gamma already.
public enum YUYVConversion {
    /// Converts `crop` (even x; default the whole frame) into `output`, rows `stride` bytes apart.
    public static func toRGB(_ frame: UnsafeRawPointer, width: Int, height: Int, bytesPerLine: Int, crop: PixelRect?,
                             into output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let area = crop ?? PixelRect(x: 0, y: 0, width: width, height: height)
        precondition(area.x % 2 == 0 && area.x + area.width <= width && area.y + area.height <= height, "crop inside the frame")
        let bytes = frame.assumingMemoryBound(to: UInt8.self)
        for row in 0..<area.height {
            let source = bytes + (area.y + row) * bytesPerLine + area.x * 2
            var out = output + row * stride
            for x in 0..<area.width {
                let pair = source + (x & ~1) * 2
                let y = (Int32(source[x * 2]) - 16) * 298
                let u = Int32(pair[1]) - 128, v = Int32(pair[3]) - 128
                out[0] = clamp((y + 409 * v + 128) >> 8)
                out[1] = clamp((y - 100 * u - 208 * v + 128) >> 8)
                out[2] = clamp((y + 516 * u + 128) >> 8)
                out += 3
            }
        }
    }

    @inline(__always)
    private static func clamp(_ value: Int32) -> UInt8 { UInt8(min(max(value, 0), 255)) }
}
