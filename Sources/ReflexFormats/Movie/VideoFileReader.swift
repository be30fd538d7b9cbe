import CFFmpeg

/// A video file's pictures one after another, as RGB (3 bytes a pixel), from any file
/// FFmpeg's libraries read; at its end it starts again from the beginning. The file sensor
/// (`--sensor file:PATH`) turns each picture into a Bayer frame.
///
/// Each picture is decoded into the one buffer `rgb` (no allocation a picture once open).
public final class VideoFileReader {
    public let path: String
    public let width: Int
    public let height: Int
    /// The pictures a second the file states (its average rate; 30 where it states none).
    public let framesPerSecond: Double
    /// How long the file says it plays, in seconds (nil where it does not say).
    public let duration: Double?
    /// The newest picture: `width` × `height` × 3 bytes, rows `width * 3` apart.
    public private(set) var rgb: [UInt8]
    /// Pictures decoded since the file was opened (counting every pass).
    public private(set) var picturesRead = 0
    /// Times the file ended and started again.
    public private(set) var loops = 0

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: DecodedPictureScaler
    private let streamIndex: Int32

    public init(path: String) throws(MovieError) {
        self.path = path
        format = try MovieContainer.open(path)
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let stream = format!.pointee.streams[Int(index)] else {
            avformat_close_input(&format)
            throw MovieError("\(path): no video stream", code: index < 0 ? index : REFLEX_AVERROR_EOF)
        }
        streamIndex = index
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            avformat_close_input(&format)
            throw MovieError("\(path): no decoder for its video", code: REFLEX_AVERROR_EOF)
        }
        decoder = avcodec_alloc_context3(codec)
        // One thread: the file sensor stands in for a sensor, not for the camera's own work.
        decoder!.pointee.thread_count = 1
        width = Int(parameters.pointee.width) & ~1
        height = Int(parameters.pointee.height) & ~1
        let rate = stream.pointee.avg_frame_rate
        framesPerSecond = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 30
        let base = stream.pointee.time_base
        duration = if format!.pointee.duration > 0 {
            Double(format!.pointee.duration) / 1_000_000  // (AV_TIME_BASE)
        } else if stream.pointee.duration > 0, base.den > 0 {
            Double(stream.pointee.duration) * Double(base.num) / Double(base.den)
        } else {
            nil
        }
        rgb = [UInt8](repeating: 0, count: max(width * height * 3, 3))
        scaler = DecodedPictureScaler(width: width, height: height, format: AV_PIX_FMT_RGB24, bytesPerPixel: 3)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        do throws(MovieError) {
            guard width >= 2 && height >= 2 else { throw MovieError("\(path): a video of \(width)x\(height)", code: REFLEX_AVERROR_EOF) }
            try MovieError.check(avcodec_parameters_to_context(decoder, parameters), "\(path): decoder parameters")
            try MovieError.check(avcodec_open2(decoder, codec, nil), "\(path): open decoder")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func close() {
        scaler.free()
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&decoder)
        avformat_close_input(&format)
    }

    /// Decodes the next picture into `rgb`, from the start again after the last.
    public func next() throws(MovieError) { try decodeNext(converting: true) }

    /// Decodes the next picture and leaves `rgb` as it was: a picture passed over costs its
    /// decoding (the ones after it need it) but not its conversion.
    public func skip() throws(MovieError) { try decodeNext(converting: false) }

    private func decodeNext(converting: Bool) throws(MovieError) {
        var restarted = false
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if received >= 0 {
                if converting { convert() }
                picturesRead += 1
                return
            }
            if received == REFLEX_AVERROR_EOF {
                // The file ended: from the beginning, with the decoder emptied.
                guard !restarted else { throw MovieError("\(path): no picture decoded", code: received) }
                restarted = true
                loops += 1
                avcodec_flush_buffers(decoder)
                try MovieError.check(av_seek_frame(format, streamIndex, 0, Int32(AVSEEK_FLAG_BACKWARD)), "\(path): rewind")
                continue
            }
            guard received == REFLEX_AVERROR_EAGAIN else { throw MovieError("\(path): decode", code: received) }
            let read = av_read_frame(format, packet)
            if read < 0 {
                // The end of the file: what the decoder still holds comes out, then EOF.
                try MovieError.check(avcodec_send_packet(decoder, nil), "\(path): end of stream")
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == streamIndex else { continue }
            let sent = avcodec_send_packet(decoder, packet)
            // A damaged packet costs a picture, not the stream.
            if sent < 0 && sent != REFLEX_AVERROR_EAGAIN && sent != REFLEX_AVERROR_EOF { continue }
        }
    }

    private func convert() {
        rgb.withUnsafeMutableBytes { scaler.scale(frame!, into: $0.baseAddress!) }
    }
}
