import CFFmpeg
import ReflexCore

/// A movie on the card played back for review: its pictures decoded one after another with
/// their times, each fitted to the panel in its XRGB (`picture`), and its sound decoded along
/// the way as 16-bit stereo (`takeSound`), or ahead of the pictures (`readSound`: a fragment
/// holds its pictures first, then their sound, so a speaker fed only as pictures are decoded
/// would hear each second's sound a second late). H.264 through the board's V4L2 memory-to-memory
/// decoder where it has one (`h264_v4l2m2m`), libavcodec's own otherwise. A movie cut by a
/// power cut plays as far as its last whole fragment.
public final class MoviePlayer {
    public let path: String
    /// How long it plays, in seconds (its last picture's time where the file does not say).
    public let duration: Double
    /// The picture fitted to the panel: `pictureWidth` × `pictureHeight` XRGB.
    public let pictureWidth: Int
    public let pictureHeight: Int
    public private(set) var picture: [UInt32]
    /// The time of the picture in `picture`, in seconds from the movie's start.
    public private(set) var pictureTime = 0.0
    /// The sound's rate (0: the movie has none), its samples interleaved in two channels.
    public let sampleRate: Int
    /// libavcodec's name of the video decoder in use.
    public let decoderName: String

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var video: UnsafeMutablePointer<AVCodecContext>?
    private var audio: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler: DecodedPictureScaler
    private let videoIndex: Int32
    private let audioIndex: Int32
    private let videoBase: Double
    private let audioBase: Double
    /// The first picture's time in the file (an encoder's reordering delay may put it after 0):
    /// times are counted from it.
    private let origin: Double
    /// Sound decoded and not yet taken, interleaved stereo.
    private var sound: [Int16] = []
    private var soundTime: Double?
    /// How far the sound is decoded, in seconds from the start (nil: none yet).
    public private(set) var soundReadUntil: Double?
    /// Pictures' packets read ahead for the sound behind them, in order, for the decoder.
    private var picturesAhead: [UnsafeMutablePointer<AVPacket>?] = []
    /// At most this many pictures are held ahead (a few seconds of a movie, a few MB).
    static let picturesHeldAhead = 150
    /// Reading reached the file's end (or where a cut ended it).
    private var fileEnded = false
    /// The last picture was decoded.
    private var ended = false

    /// Opens `path` to be shown inside `panelWidth` × `panelHeight`.
    public init(path: String, fitting panelWidth: Int, _ panelHeight: Int) throws(MovieError) {
        self.path = path
        format = try MovieContainer.open(path)
        let streams = format!.pointee.streams!
        videoIndex = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        audioIndex = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, videoIndex, nil, 0)
        guard videoIndex >= 0, let stream = streams[Int(videoIndex)] else {
            avformat_close_input(&format)
            throw MovieError("\(path): no video stream", code: REFLEX_AVERROR_EOF)
        }
        func seconds(_ base: AVRational) -> Double { base.den > 0 ? Double(base.num) / Double(base.den) : 0 }
        videoBase = seconds(stream.pointee.time_base)
        let start = stream.pointee.start_time
        origin = start == REFLEX_AV_NOPTS_VALUE ? 0 : Double(start) * videoBase
        let parameters = stream.pointee.codecpar!
        let fit = PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight)
            .fitting(sourceWidth: Int(parameters.pointee.width), sourceHeight: Int(parameters.pointee.height))
        (pictureWidth, pictureHeight) = (max(fit.width, 2), max(fit.height, 2))
        picture = [UInt32](repeating: 0xFF00_0000, count: pictureWidth * pictureHeight)
        scaler = DecodedPictureScaler(width: pictureWidth, height: pictureHeight, format: AV_PIX_FMT_BGRA, bytesPerPixel: 4)
        let fileDuration = format!.pointee.duration > 0 ? Double(format!.pointee.duration) / 1_000_000 : 0
        duration = fileDuration > 0 ? fileDuration : Double(max(stream.pointee.duration, 0)) * videoBase
        var opened: (UnsafeMutablePointer<AVCodecContext>, String)?
        // The board's hardware decoder first; libavcodec's own where there is none.
        for name in parameters.pointee.codec_id == AV_CODEC_ID_H264 ? ["h264_v4l2m2m", ""] : [""] {
            let codec = name.isEmpty ? avcodec_find_decoder(parameters.pointee.codec_id) : avcodec_find_decoder_by_name(name)
            guard let codec, let context = avcodec_alloc_context3(codec) else { continue }
            if avcodec_parameters_to_context(context, parameters) >= 0 && avcodec_open2(context, codec, nil) >= 0 {
                opened = (context, String(cString: codec.pointee.name))
                break
            }
            var unused: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&unused)
        }
        guard let opened else {
            avformat_close_input(&format)
            throw MovieError("\(path): no decoder for its video", code: REFLEX_AVERROR_EOF)
        }
        (video, decoderName) = opened
        var rate = 0, base = 0.0
        if audioIndex >= 0, let soundStream = streams[Int(audioIndex)],
           let codec = avcodec_find_decoder(soundStream.pointee.codecpar.pointee.codec_id), let context = avcodec_alloc_context3(codec) {
            if avcodec_parameters_to_context(context, soundStream.pointee.codecpar) >= 0 && avcodec_open2(context, codec, nil) >= 0 {
                audio = context
                rate = Int(context.pointee.sample_rate)
                base = seconds(soundStream.pointee.time_base)
            } else {
                var unused: UnsafeMutablePointer<AVCodecContext>? = context
                avcodec_free_context(&unused)
            }
        }
        (sampleRate, audioBase) = (rate, base)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        forgetPicturesAhead()
        scaler.free()
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&video)
        avcodec_free_context(&audio)
        avformat_close_input(&format)
    }

    /// Decodes the next picture into `picture` (`convert` false: decoded, passed over, as a late
    /// frame is); false at the movie's end (or where a cut ended it).
    public func nextPicture(convert: Bool = true) -> Bool {
        while !ended {
            let received = avcodec_receive_frame(video, frame)
            if received >= 0 {
                let stamp = frame!.pointee.best_effort_timestamp
                pictureTime = stamp == REFLEX_AV_NOPTS_VALUE ? pictureTime : Double(stamp) * videoBase - origin
                if convert { fit() }
                return true
            }
            if received == REFLEX_AVERROR_EOF {
                ended = true
                break
            }
            feedPicture()
        }
        return false
    }

    /// Reads on ahead of the pictures (their packets kept, in order, for `nextPicture`) until
    /// the sound is decoded through `seconds`, the file ends, or `picturesHeldAhead` are held.
    public func readSound(through seconds: Double) {
        guard audio != nil else { return }
        while !fileEnded, (soundReadUntil ?? -.infinity) < seconds, picturesAhead.count < Self.picturesHeldAhead {
            readPacket(holdingPictures: true)
        }
    }

    /// The sound decoded so far and not yet taken (interleaved stereo), and the time of its
    /// first sample; it is taken away.
    public func takeSound() -> (samples: [Int16], time: Double)? {
        guard !sound.isEmpty, let time = soundTime else { return nil }
        defer { (sound, soundTime) = ([], nil) }
        return (sound, time)
    }

    /// To `seconds` from the start: the picture there (the keyframe before it, decoded on to
    /// it) in `picture`; the sound from there on.
    public func seek(to seconds: Double) {
        let target = min(max(seconds, 0), duration)
        av_seek_frame(format, -1, Int64((target + origin) * 1_000_000), Int32(AVSEEK_FLAG_BACKWARD))
        avcodec_flush_buffers(video)
        if let audio { avcodec_flush_buffers(audio) }
        forgetPicturesAhead()
        (sound, soundTime, soundReadUntil, ended, fileEnded) = ([], nil, nil, false, false)
        while nextPicture(convert: false) {
            if pictureTime >= target - 0.001 { break }
        }
        fit()
        // (The sound from before the picture is dropped: it starts with the picture.)
        (sound, soundTime, soundReadUntil) = ([], nil, nil)
    }

    /// The video decoder's next packet: one held ahead, else the file's next (past its end the
    /// decoder is drained).
    private func feedPicture() {
        if !picturesAhead.isEmpty {
            var held = picturesAhead.removeFirst()
            // A damaged packet costs a picture, not the movie.
            _ = avcodec_send_packet(video, held)
            av_packet_free(&held)
        } else if fileEnded {
            avcodec_send_packet(video, nil)
        } else {
            readPacket(holdingPictures: false)
        }
    }

    /// Reads one packet: a picture's to its decoder (or held, reading ahead), sound decoded.
    private func readPacket(holdingPictures: Bool) {
        if av_read_frame(format, packet) < 0 {
            fileEnded = true
            return
        }
        defer { av_packet_unref(packet) }
        if packet!.pointee.stream_index == videoIndex {
            if holdingPictures, let held = av_packet_alloc() {
                av_packet_move_ref(held, packet)
                picturesAhead.append(held)
            } else {
                _ = avcodec_send_packet(video, packet)
            }
        } else if packet!.pointee.stream_index == audioIndex, let audio, avcodec_send_packet(audio, packet) >= 0 {
            while avcodec_receive_frame(audio, frame) >= 0 { keepSound() }
        }
    }

    /// The decoded sound frame in `frame`, as 16-bit stereo (mono doubled), kept for `takeSound`.
    private func keepSound() {
        let decoded = frame!.pointee
        let count = Int(decoded.nb_samples), channels = Int(decoded.ch_layout.nb_channels)
        guard count > 0, channels > 0 else { return }
        let stamp = decoded.best_effort_timestamp
        let time = stamp == REFLEX_AV_NOPTS_VALUE ? (soundReadUntil ?? pictureTime) : Double(stamp) * audioBase - origin
        if soundTime == nil { soundTime = time }
        soundReadUntil = time + Double(count) / Double(max(sampleRate, 1))
        let format = AVSampleFormat(decoded.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        withUnsafePointer(to: frame!.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                func sample(_ index: Int, _ channel: Int) -> Int16 {
                    let plane = planar ? planes[channel]! : planes[0]!
                    let at = planar ? index : index * channels + channel
                    switch format {
                    case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT:
                        let value = UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self)[at]
                        return Int16(max(-1, min(1, value)) * 32767)
                    case AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S16:
                        return UnsafeRawPointer(plane).assumingMemoryBound(to: Int16.self)[at]
                    default:
                        return 0
                    }
                }
                sound.reserveCapacity(sound.count + count * 2)
                for index in 0..<count {
                    sound.append(sample(index, 0))
                    sound.append(sample(index, min(1, channels - 1)))
                }
            }
        }
    }

    private func forgetPicturesAhead() {
        for var held in picturesAhead { av_packet_free(&held) }
        picturesAhead = []
    }

    /// The decoded picture in `frame` scaled into `picture`.
    private func fit() {
        picture.withUnsafeMutableBytes { scaler.scale(frame!, into: $0.baseAddress!) }
    }
}
