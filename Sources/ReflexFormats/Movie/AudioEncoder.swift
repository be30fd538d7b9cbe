import CFFmpeg

/// AAC-LC through FFmpeg's own encoder: the microphone's 16-bit interleaved samples in,
/// packets for the MP4 out, at 128 kbit/s. Samples are gathered into the encoder's frames of
/// 1024 and converted to its planar floats here; a frame's timestamp is the index (from the
/// movie's time zero) of its first sample, so sound and picture share one clock. The track
/// starts at time zero (a fragmented MP4 has no edit list to start it later: silence until
/// the first sample), a gap the microphone left is filled with silence, samples placed over
/// ones already encoded are dropped: the track runs on without a jump.
public final class AudioEncoder {
    public let sampleRate: Int
    public let channels: Int
    public static let bitRate = 128_000
    public private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let frameSize: Int
    /// Samples gathered for the next frame (planar, one row a channel) and how many.
    private var gathered: [Float]
    private var gatheredCount = 0
    /// The index of the next sample the track takes.
    private var nextIndex: Int64 = 0
    /// Samples of silence put in for gaps, and samples dropped as late (for the log).
    public private(set) var silenceInserted: Int64 = 0
    public private(set) var samplesDropped: Int64 = 0

    public init(sampleRate: Int, channels: Int, globalHeader: Bool) throws(MovieError) {
        self.sampleRate = sampleRate
        self.channels = channels
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let context = avcodec_alloc_context3(codec) else {
            throw MovieError("AAC encoder", code: REFLEX_AVERROR_EOF)
        }
        self.context = context
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        context.pointee.bit_rate = Int64(AudioEncoder.bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        do throws(MovieError) {
            try MovieError.check(avcodec_open2(context, codec, nil), "open AAC encoder")
        } catch {
            avcodec_free_context(&self.context)
            throw error
        }
        frameSize = Int(context.pointee.frame_size)
        gathered = [Float](repeating: 0, count: frameSize * channels)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame, packet != nil else { throw MovieError("audio frame", code: -12) }
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        try MovieError.check(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), "layout")
        try MovieError.check(av_frame_get_buffer(frame, 0), "audio frame buffer")
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&context)
    }

    /// Adds `count` interleaved samples a channel, the first at `index` (samples from the
    /// movie's time zero), and writes the packets that complete to `writer`'s stream `stream`.
    public func add(_ samples: UnsafePointer<Int16>, count: Int, index: Int64, into writer: MovieWriter,
                    stream: Int32) throws(MovieError) {
        var first = 0
        if index < nextIndex {
            // Over samples already taken: those are dropped.
            first = Int(min(nextIndex - index, Int64(count)))
            samplesDropped += Int64(first)
        } else if index > nextIndex {
            // Silence for the gap (the picture went on), however long: sync is kept.
            silenceInserted += index - nextIndex
            for _ in 0..<(index - nextIndex) { try append(nil, into: writer, stream: stream) }
        }
        for sample in first..<count { try append(samples + sample * channels, into: writer, stream: stream) }
    }

    /// One sample a channel (nil: silence) into the frame being gathered.
    @inline(__always)
    private func append(_ sample: UnsafePointer<Int16>?, into writer: MovieWriter, stream: Int32) throws(MovieError) {
        for channel in 0..<channels {
            gathered[channel * frameSize + gatheredCount] = sample.map { Float($0[channel]) / 32768 } ?? 0
        }
        gatheredCount += 1
        nextIndex += 1
        if gatheredCount == frameSize { try flushGathered(into: writer, stream: stream) }
    }

    /// The samples gathered as one frame (padded with silence when short), encoded.
    private func flushGathered(into writer: MovieWriter, stream: Int32) throws(MovieError) {
        guard gatheredCount > 0, let frame else { return }
        try MovieError.check(av_frame_make_writable(frame), "audio frame writable")
        for channel in 0..<channels {
            let plane = UnsafeMutableRawPointer(frame.pointee.extended_data[channel]!).assumingMemoryBound(to: Float.self)
            gathered.withUnsafeBufferPointer { source in
                plane.update(from: source.baseAddress! + channel * frameSize, count: gatheredCount)
            }
            (plane + gatheredCount).update(repeating: 0, count: frameSize - gatheredCount)
        }
        frame.pointee.pts = nextIndex - Int64(gatheredCount)
        gatheredCount = 0
        try MovieError.check(avcodec_send_frame(context, frame), "encode audio")
        try drain(into: writer, stream: stream)
    }

    /// What is gathered, then what the encoder holds, written out.
    public func finish(into writer: MovieWriter, stream: Int32) throws(MovieError) {
        try flushGathered(into: writer, stream: stream)
        let result = avcodec_send_frame(context, nil)
        if result != REFLEX_AVERROR_EOF { try MovieError.check(result, "end of audio") }
        try drain(into: writer, stream: stream)
    }

    private func drain(into writer: MovieWriter, stream: Int32) throws(MovieError) {
        while true {
            let result = avcodec_receive_packet(context, packet)
            if result == REFLEX_AVERROR_EAGAIN || result == REFLEX_AVERROR_EOF { return }
            try MovieError.check(result, "encoded audio")
            try writer.write(packet!, stream: stream)
        }
    }
}
