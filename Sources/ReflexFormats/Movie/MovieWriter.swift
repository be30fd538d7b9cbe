import CFFmpeg

/// An MP4 file written as it is recorded, through libavformat: fragmented (an empty `moov`,
/// then a `moof`+`mdat` pair a keyframe), so everything up to the last fragment plays
/// whatever happens to the rest — a power cut, a card filled or pulled. Bytes go out through
/// `output` as they are made, in order, never sought back over (so a file on any card, or a
/// pipe, takes them); the caller makes them durable after each fragment (`flush`).
///
/// Use: `init`, `addStream` for each encoder (opened with `needsGlobalHeader`), `start`,
/// `write` each packet, `finish`.
public final class MovieWriter {
    /// Writes bytes, returns 0 or the system's error number (ENOSPC: the card is full).
    public typealias Output = (UnsafeRawBufferPointer) -> Int32

    /// The callback's context: the output, and the first error it met.
    private final class Sink {
        let output: Output
        var bytesWritten: Int64 = 0
        init(_ output: @escaping Output) { self.output = output }
    }

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let sink: Sink
    private var started = false
    private var finished = false
    /// Each stream's encoder time base, for rescaling its packets.
    private var encoderTimeBases: [AVRational] = []
    private static let bufferSize = 256 * 1024

    public init(output: @escaping Output) throws(MovieError) {
        sink = Sink(output)
        var made: UnsafeMutablePointer<AVFormatContext>?
        try MovieError.check(avformat_alloc_output_context2(&made, nil, "mp4", nil), "MP4 muxer")
        format = made
        guard let buffer = av_malloc(MovieWriter.bufferSize) else { throw MovieError("AVIO buffer", code: -12) }
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(MovieWriter.bufferSize), 1,
                                Unmanaged.passUnretained(sink).toOpaque(), nil, { opaque, bytes, count in
            let sink = Unmanaged<Sink>.fromOpaque(opaque!).takeUnretainedValue()
            let error = sink.output(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
            guard error == 0 else { return -error }
            sink.bytesWritten += Int64(count)
            return count
        }, nil)
        guard io != nil else {
            av_free(buffer)
            throw MovieError("AVIO context", code: -12)
        }
        format!.pointee.pb = io
        format!.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    }

    deinit {
        if let io {
            av_freep(&io.pointee.buffer)
            avio_context_free(&self.io)
        }
        avformat_free_context(format)
    }

    /// Encoders for MP4 put their parameter sets in the stream's header (AV_CODEC_FLAG_GLOBAL_HEADER).
    public var needsGlobalHeader: Bool { (format!.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 }

    /// Bytes handed to the output so far.
    public var bytesWritten: Int64 { sink.bytesWritten }

    /// A stream for the packets of `encoder` (opened); its index.
    public func addStream(for encoder: UnsafeMutablePointer<AVCodecContext>) throws(MovieError) -> Int32 {
        precondition(!started, "streams are added before start")
        guard let stream = avformat_new_stream(format, nil) else { throw MovieError("new stream", code: -12) }
        try MovieError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "stream parameters")
        stream.pointee.time_base = encoder.pointee.time_base
        encoderTimeBases.append(encoder.pointee.time_base)
        return stream.pointee.index
    }

    /// Writes the file's header: `ftyp` and an empty `moov`; fragments follow.
    public func start() throws(MovieError) {
        var options: OpaquePointer?
        // A fragment starts at each keyframe; each fragment's offsets count from its own moof
        // (what players and `ffprobe` expect of fragmented MP4).
        av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
        defer { av_dict_free(&options) }
        try MovieError.check(avformat_write_header(format, &options), "MP4 header")
        started = true
    }

    /// Writes one encoded packet of stream `index` (its timestamps in its encoder's time base).
    public func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int32) throws(MovieError) {
        let stream = format!.pointee.streams[Int(index)]!
        av_packet_rescale_ts(packet, encoderTimeBases[Int(index)], stream.pointee.time_base)
        packet.pointee.stream_index = index
        try MovieError.check(av_interleaved_write_frame(format, packet), "write packet")
    }

    /// Hands every byte made so far to the output (then the caller syncs it to the card):
    /// the packets the interleaver holds (a keyframe waits there for the sound to catch up,
    /// and the fragment before it is written only once it goes through), then the buffer.
    public func flush() throws(MovieError) {
        try MovieError.check(av_interleaved_write_frame(format, nil), "flush packets")
        avio_flush(io)
        if let error = io?.pointee.error, error < 0 { throw MovieError("write", code: error) }
    }

    /// Ends the file: the last fragment and the index at the end (`mfra`), flushed.
    public func finish() throws(MovieError) {
        guard started, !finished else { return }
        finished = true
        try MovieError.check(av_write_trailer(format), "MP4 trailer")
        avio_flush(io)
        if let error = io?.pointee.error, error < 0 { throw MovieError("MP4 trailer", code: error) }
    }
}
