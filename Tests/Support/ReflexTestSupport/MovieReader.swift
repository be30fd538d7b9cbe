import ReflexFormats
import CFFmpeg

/// A movie read back through libavformat and libavcodec, as a player reads it: what its
/// streams are, and its video decoded to XRGB pictures. For checking what was recorded (the
/// tests, `reflex bench record`), not for playback.
public final class MovieReader {
    public struct Stream: Sendable, Equatable {
        public let kind: String  // "video", "audio"
        public let codec: String  // "h264", "aac"
        public let width: Int, height: Int
        public let sampleRate: Int, channels: Int

        public init(kind: String, codec: String, width: Int, height: Int, sampleRate: Int, channels: Int) {
            (self.kind, self.codec, self.width, self.height) = (kind, codec, width, height)
            (self.sampleRate, self.channels) = (sampleRate, channels)
        }
    }

    /// A decoded picture: XRGB words, `width` a row, and its time in seconds from the start.
    public struct Picture {
        public let width: Int, height: Int
        public let seconds: Double
        public let pixels: [UInt32]
    }

    private var format: UnsafeMutablePointer<AVFormatContext>?
    public let streams: [Stream]

    public init(path: String) throws(MovieError) {
        try MovieError.check(avformat_open_input(&format, path, nil, nil), "open \(path)")
        try MovieError.check(avformat_find_stream_info(format, nil), "stream info")
        var found: [Stream] = []
        for index in 0..<Int(format!.pointee.nb_streams) {
            let parameters = format!.pointee.streams[index]!.pointee.codecpar!.pointee
            let kind = parameters.codec_type == AVMEDIA_TYPE_VIDEO ? "video" : parameters.codec_type == AVMEDIA_TYPE_AUDIO ? "audio" : "other"
            found.append(Stream(kind: kind, codec: String(cString: avcodec_get_name(parameters.codec_id)),
                                width: Int(parameters.width), height: Int(parameters.height),
                                sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels)))
        }
        streams = found
    }

    deinit { avformat_close_input(&format) }

    /// The duration the container states, in seconds (0 when it states none).
    public var durationSeconds: Double {
        let duration = format!.pointee.duration
        return duration > 0 ? Double(duration) / Double(AV_TIME_BASE) : 0
    }

    /// Every packet's presentation time of the stream of `kind`, in seconds, in file order
    /// (reads the file through; call once).
    public func packetTimes(of kind: String) throws(MovieError) -> [Double] {
        guard let index = streams.firstIndex(where: { $0.kind == kind }) else { return [] }
        let timeBase = format!.pointee.streams[index]!.pointee.time_base
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var times: [Double] = []
        while av_read_frame(format, packet) >= 0 {
            if packet!.pointee.stream_index == Int32(index) {
                times.append(Double(packet!.pointee.pts) * Double(timeBase.num) / Double(timeBase.den))
            }
            av_packet_unref(packet)
        }
        return times
    }

    /// The video decoded, picture by picture, to XRGB (BT.709 limited range, as it was
    /// encoded), each handed to `body` (reads the file through; call once, on a new reader).
    public func decodeVideo(_ body: (Picture) -> Void) throws(MovieError) {
        guard let index = streams.firstIndex(where: { $0.kind == "video" }) else { return }
        let stream = format!.pointee.streams[index]!
        guard let codec = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            throw MovieError("decoder", code: REFLEX_AVERROR_EOF)
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        try MovieError.check(avcodec_parameters_to_context(context, stream.pointee.codecpar), "decoder parameters")
        try MovieError.check(avcodec_open2(context, codec, nil), "open decoder")
        var packet = av_packet_alloc(), frame = av_frame_alloc()
        defer { av_packet_free(&packet); av_frame_free(&frame) }
        let timeBase = stream.pointee.time_base
        func receive() throws(MovieError) {
            while true {
                let result = avcodec_receive_frame(context, frame)
                if result == REFLEX_AVERROR_EAGAIN || result == REFLEX_AVERROR_EOF { return }
                try MovieError.check(result, "decode")
                body(picture(of: frame!, seconds: Double(frame!.pointee.best_effort_timestamp) * Double(timeBase.num)
                                                  / Double(timeBase.den)))
            }
        }
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == Int32(index) else { continue }
            try MovieError.check(avcodec_send_packet(context, packet), "decode packet")
            try receive()
        }
        try MovieError.check(avcodec_send_packet(context, nil), "end of stream")
        try receive()
    }

    private func picture(of frame: UnsafeMutablePointer<AVFrame>, seconds: Double) -> Picture {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        var pixels = [UInt32](repeating: 0, count: width * height)
        let converter = sws_getContext(Int32(width), Int32(height), AVPixelFormat(frame.pointee.format),
                                       Int32(width), Int32(height), AV_PIX_FMT_BGR0, SWS_POINT, nil, nil, nil)
        defer { sws_freeContext(converter) }
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        sws_setColorspaceDetails(converter, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16)
        pixels.withUnsafeMutableBytes { buffer in
            var destination: UnsafeMutablePointer<UInt8>? = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var stride = Int32(width * 4)
            let sources = withUnsafePointer(to: &frame.pointee.data) {
                $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { $0 }
            }
            let strides = withUnsafePointer(to: &frame.pointee.linesize) {
                $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 }
            }
            sws_scale(converter, sources, strides, 0, Int32(height), &destination, &stride)
        }
        return Picture(width: width, height: height, seconds: seconds, pixels: pixels)
    }
}
