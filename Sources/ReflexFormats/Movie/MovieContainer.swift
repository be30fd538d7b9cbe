import CFFmpeg

/// A movie file's container opened by libavformat, its streams read, for the readers that
/// decode it (the file sensor's `VideoFileReader`, review's `MoviePlayer`).
enum MovieContainer {
    /// `path` opened with its streams' info; closed again when that cannot be read.
    static func open(_ path: String) throws(MovieError) -> UnsafeMutablePointer<AVFormatContext> {
        var format: UnsafeMutablePointer<AVFormatContext>?
        try MovieError.check(avformat_open_input(&format, path, nil, nil), "open \(path)")
        do throws(MovieError) {
            try MovieError.check(avformat_find_stream_info(format, nil), "\(path): stream info")
        } catch {
            avformat_close_input(&format)
            throw error
        }
        return format!
    }
}
