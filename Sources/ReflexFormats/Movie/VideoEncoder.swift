import CFFmpeg
import ReflexCore

/// H.264 through libavcodec: frames of the ISP's XRGB pictures at the recording's size in,
/// packets for the MP4 out. The XRGB is converted to 4:2:0 (BT.709, limited range, the
/// video standard players assume) by libswscale. Everything it needs is allocated when it is
/// made: a frame allocates nothing of ours (FFmpeg's encoders keep their own pools).
public final class VideoEncoder {
    /// libavcodec's name of the encoder in use: "h264_v4l2m2m" or "libx264".
    public let name: String
    public let format: VideoFormat
    public private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let converter: OpaquePointer
    /// Frames sent, and keyframes among the packets received.
    public private(set) var framesEncoded = 0
    public private(set) var keyframes = 0
    /// The second of the movie the last keyframe was asked for in: each new second starts with
    /// one, so fragments are a second long whatever the sensor's rate (a 5 fps camera's too).
    private var keyframeSecond: Int64 = -1

    /// Opens `encoder` for `format`; throws when it cannot be opened (no such hardware, or
    /// FFmpeg built without it). `globalHeader`: the container wants the parameter sets apart.
    /// `colour`: the 4:2:0's standard (a recording's BT.709; a timelapse's JPEG colours).
    public init(_ encoder: VideoEncoderChoice, format: VideoFormat, globalHeader: Bool,
                colour: VideoColour = .bt709Limited) throws(MovieError) {
        name = encoder.codecName
        self.format = format
        // FFmpeg's chatter (libx264's banner) stays off the camera's log; errors come back as codes.
        av_log_set_level(AV_LOG_ERROR)
        guard let codec = avcodec_find_encoder_by_name(encoder.codecName) else {
            throw MovieError("encoder \(encoder.codecName)", code: REFLEX_AVERROR_EOF)
        }
        guard let context = avcodec_alloc_context3(codec) else { throw MovieError("encoder context", code: -12) }
        self.context = context
        context.pointee.width = Int32(format.width)
        context.pointee.height = Int32(format.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        // One tick a frame: a frame's timestamp is its place at the recording's rate.
        context.pointee.time_base = AVRational(num: 1, den: Int32(format.framesPerSecond))
        context.pointee.framerate = AVRational(num: Int32(format.framesPerSecond), den: 1)
        context.pointee.gop_size = Int32(format.keyframeInterval)
        context.pointee.max_b_frames = 0
        context.pointee.bit_rate = Int64(format.bitRate)
        context.pointee.rc_max_rate = Int64(format.bitRate * 5 / 4)
        context.pointee.rc_buffer_size = Int32(format.bitRate)
        context.pointee.color_range = colour.range
        context.pointee.colorspace = colour.space
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        for (key, value) in encoder.options { av_dict_set(&options, key, value, 0) }
        do throws(MovieError) {
            try MovieError.check(avcodec_open2(context, codec, &options), "open \(encoder.codecName)")
        } catch {
            avcodec_free_context(&self.context)
            throw error
        }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame, packet != nil,
              let converter = sws_getContext(Int32(format.width), Int32(format.height), AV_PIX_FMT_BGR0,
                                             Int32(format.width), Int32(format.height), AV_PIX_FMT_YUV420P,
                                             SWS_POINT, nil, nil, nil) else {
            throw MovieError("encoder frame", code: -12)
        }
        self.converter = converter
        frame.pointee.width = Int32(format.width)
        frame.pointee.height = Int32(format.height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.color_range = colour.range
        frame.pointee.colorspace = colour.space
        try MovieError.check(av_frame_get_buffer(frame, 0), "frame buffer")
        // RGB in (its range is ignored), BT.709 limited-range YUV out.
        sws_setColorspaceDetails(converter, colour.coefficients, 1, colour.coefficients, colour.fullRange, 0, 1 << 16, 1 << 16)
    }

    deinit {
        sws_freeContext(converter)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&context)
    }

    /// Encodes one picture (XRGB words, `stride` words a row, the recording's size) as frame
    /// number `index` (at the recording's rate from its start) and writes what comes out to
    /// `writer`'s stream `stream`. True when a keyframe was written (a fragment ended before it).
    @discardableResult
    public func encode(xrgb: UnsafePointer<UInt32>, stride: Int, index: Int64,
                       into writer: MovieWriter, stream: Int32) throws(MovieError) -> Bool {
        guard let frame else { return false }
        // The encoder may still hold the frame's buffers: they are made writable (a copy only
        // where it still does).
        try MovieError.check(av_frame_make_writable(frame), "frame writable")
        var source: UnsafePointer<UInt8>? = UnsafeRawPointer(xrgb).assumingMemoryBound(to: UInt8.self)
        var sourceStride = Int32(stride * 4)
        let destinations = withUnsafeMutablePointer(to: &frame.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        let destinationStrides = withUnsafeMutablePointer(to: &frame.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 }
        }
        sws_scale(converter, &source, &sourceStride, 0, Int32(format.height), destinations, destinationStrides)
        return try send(frame, index: index, into: writer, stream: stream)
    }

    /// Encodes one picture already in the encoder's 4:2:0 (of its `colour`: see `YUVPicture`),
    /// made on another thread, as frame number `index`.
    @discardableResult
    public func encode(_ picture: YUVPicture, index: Int64, into writer: MovieWriter, stream: Int32) throws(MovieError) -> Bool {
        guard let frame else { return false }
        precondition(picture.width == format.width && picture.height == format.height, "a picture of the recording's size")
        try MovieError.check(av_frame_make_writable(frame), "frame writable")
        picture.planes.withUnsafeBufferPointer { planes in
            let source = planes.baseAddress!
            let (width, height) = (format.width, format.height)
            let destinations = [frame.pointee.data.0!, frame.pointee.data.1!, frame.pointee.data.2!]
            let strides = [Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1), Int(frame.pointee.linesize.2)]
            let offsets = [0, width * height, width * height + width * height / 4]
            for plane in 0..<3 {
                let (rowBytes, rows) = plane == 0 ? (width, height) : (width / 2, height / 2)
                for row in 0..<rows {
                    (destinations[plane] + row * strides[plane]).update(from: source + offsets[plane] + row * rowBytes, count: rowBytes)
                }
            }
        }
        return try send(frame, index: index, into: writer, stream: stream)
    }

    /// `frame`, filled, as frame number `index`: a keyframe at each new second.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>, index: Int64, into writer: MovieWriter,
                      stream: Int32) throws(MovieError) -> Bool {
        frame.pointee.pts = index
        let second = index / Int64(format.framesPerSecond)
        frame.pointee.pict_type = second > keyframeSecond ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        keyframeSecond = max(keyframeSecond, second)
        try MovieError.check(avcodec_send_frame(context, frame), "encode frame")
        framesEncoded += 1
        return try drain(into: writer, stream: stream)
    }

    /// Sends the end of the stream and writes the packets the encoder still held.
    public func finish(into writer: MovieWriter, stream: Int32) throws(MovieError) {
        let result = avcodec_send_frame(context, nil)
        if result != REFLEX_AVERROR_EOF { try MovieError.check(result, "end of stream") }
        try drain(into: writer, stream: stream)
    }

    @discardableResult
    private func drain(into writer: MovieWriter, stream: Int32) throws(MovieError) -> Bool {
        var sawKeyframe = false
        while true {
            let result = avcodec_receive_packet(context, packet)
            if result == REFLEX_AVERROR_EAGAIN || result == REFLEX_AVERROR_EOF { return sawKeyframe }
            try MovieError.check(result, "encoded packet")
            if packet!.pointee.flags & AV_PKT_FLAG_KEY != 0 {
                sawKeyframe = true
                keyframes += 1
            }
            // (The writer takes the packet's data and leaves it blank for the next.)
            try writer.write(packet!, stream: stream)
        }
    }
}

extension VideoEncoderChoice {
    /// The first of `candidates` that opens for `format` (each tried for real), and why each
    /// one before it did not.
    public static func firstThatOpens(_ candidates: [VideoEncoderChoice], format: VideoFormat)
        -> (choice: VideoEncoderChoice?, refused: [(VideoEncoderChoice, MovieError)]) {
        var refused: [(VideoEncoderChoice, MovieError)] = []
        for choice in candidates {
            do {
                _ = try VideoEncoder(choice, format: format, globalHeader: true)
                return (choice, refused)
            } catch {
                refused.append((choice, error))
            }
        }
        return (nil, refused)
    }
}
