import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The board's loudspeaker (or line out) through ALSA, for a movie's sound in review: 16-bit
/// stereo at the movie's rate, written without blocking, so the review thread keeps about
/// half a second queued between pictures; what the device has really played is the
/// playback's clock, so the pictures keep to the sound. It plays from `start()`, as soon as
/// there is anything to play (ALSA's own start waits for a full buffer, which a movie read
/// slower than it plays never gives).
public final class Speaker: SoundOutput {
    public let device: String
    public let sampleRate: Int
    private let pcm: OpaquePointer
    /// Frames written since the last start.
    public private(set) var framesWritten = 0

    /// Opens `device` (an ALSA PCM name: "default", "plughw:CARD=PCH,DEV=0") for playback at
    /// `sampleRate` (ALSA's plug layer converts where the device does not take it).
    public init(device: String, sampleRate: Int) throws(AudioDeviceError) {
        self.device = device
        self.sampleRate = sampleRate
        var opened: OpaquePointer?
        var result = snd_pcm_open(&opened, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard result == 0, let opened else { throw AudioDeviceError(device: device, code: result) }
        result = snd_pcm_set_params(opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 2, UInt32(sampleRate), 1,
                                    500_000)
        guard result == 0 else {
            snd_pcm_close(opened)
            throw AudioDeviceError(device: device, code: result)
        }
        pcm = opened
    }

    deinit {
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
    }

    /// Opens the board's speaker.
    public static let opener: SoundOutputOpener = { device, sampleRate in try Speaker(device: device, sampleRate: sampleRate) }

    /// Writes what the device takes now of `samples` (interleaved stereo) from frame `from`;
    /// the frames written (0 when its buffer is full). An underrun (the thread held up) is
    /// recovered, and the sound goes on.
    public func write(_ samples: [Int16], from: Int) -> Int {
        let frames = samples.count / 2 - from
        guard frames > 0 else { return 0 }
        let written = samples.withUnsafeBufferPointer { snd_pcm_writei(pcm, $0.baseAddress! + from * 2, snd_pcm_uframes_t(frames)) }
        if written < 0 {
            if Int32(written) != -EAGAIN { snd_pcm_recover(pcm, Int32(written), 1) }
            return 0
        }
        framesWritten += Int(written)
        return Int(written)
    }

    /// Seconds of sound written and not yet heard.
    public var queuedSeconds: Double {
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &delay) == 0 else { return 0 }
        return Double(max(delay, 0)) / Double(sampleRate)
    }

    /// Playing; an underrun (everything written was heard) or a stop ends it.
    public var isPlaying: Bool { snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING }

    public func start() {
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED { snd_pcm_start(pcm) }
    }

    /// Silences it at once (a pause, a seek), ready to start again from nothing.
    public func stop() {
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
        framesWritten = 0
    }
}
