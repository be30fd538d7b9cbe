import CCairo

/// PNG files of XRGB8888 frames, through Cairo's own PNG codec: the headless display's
/// output and the golden images' format.
public enum PNGImage {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Writes `pixels` (XRGB8888, `stride` pixels a row) to `path` as an opaque RGB PNG.
    public static func write(_ pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int,
                             to path: String) throws(Failure) {
        let surface = cairo_image_surface_create_for_data(
            UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
            Int32(width), Int32(height), Int32(stride * 4))
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// Reads a PNG as XRGB8888 pixels (`width` a row).
    public static func read(_ path: String) throws(Failure) -> (pixels: [UInt32], width: Int, height: Int) {
        let loaded = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(loaded) }
        let status = cairo_surface_status(loaded)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "cannot read \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        let width = Int(cairo_image_surface_get_width(loaded)), height = Int(cairo_image_surface_get_height(loaded))
        // Drawn onto an opaque surface, whatever the file's own format was.
        var pixels = [UInt32](repeating: 0xFF00_0000, count: width * height)
        pixels.withUnsafeMutableBytes { bytes in
            let target = cairo_image_surface_create_for_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                             CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(width * 4))
            let context = cairo_create(target)
            cairo_set_source_surface(context, loaded, 0, 0)
            cairo_paint(context)
            cairo_destroy(context)
            cairo_surface_flush(target)
            cairo_surface_destroy(target)
        }
        return (pixels.map { $0 | 0xFF00_0000 }, width, height)
    }
}
