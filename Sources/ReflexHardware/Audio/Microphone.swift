import CALSA
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The board's microphone through ALSA, while a movie records: 48 kHz 16-bit samples read a
/// period (20 ms) at a time on a thread of its own, each period stamped with the monotonic
/// time of its first sample (now, less what is still in the device's buffer and what was
/// just read), and handed to the movie thread in chunks allocated once. An overrun (the
/// thread held up) is recovered and counted; the movie fills its gap with silence.
public final class Microphone: @unchecked Sendable {
    public static let sampleRate = 48_000
    public static let periodFrames = 960
    static let chunkCount = 32
    public let device: String
    public let channels: Int
    /// Chunks read, for the movie thread; it gives each back once encoded.
    public let chunks: HandOffQueue<MicrophoneChunk>
    private let free: HandOffQueue<MicrophoneChunk>
    private let pcm: OpaquePointer
    private let thread = WorkerThread(name: "reflex-audio")
    private let overrunCount = Atomic<Int>(0)
    private let lostCount = Atomic<Int>(0)
    /// Where a period goes when every chunk is out (its samples are lost, counted).
    private let spare: MicrophoneChunk

    /// Opens `device` (an ALSA PCM name: "default", "plughw:CARD=PCH,DEV=0") for capture;
    /// throws with ALSA's reason when there is no such device or it cannot capture.
    public init(device: String, wakes: EventSignal) throws(AudioDeviceError) {
        self.device = device
        var opened: OpaquePointer?
        var result = snd_pcm_open(&opened, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard result == 0, let opened else { throw AudioDeviceError(device: device, code: result) }
        // Mono where the device (or ALSA's plug layer) gives it, else its two channels.
        var channels = 1
        result = snd_pcm_set_params(opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1,
                                    UInt32(Microphone.sampleRate), 1, 200_000)
        if result < 0 {
            channels = 2
            result = snd_pcm_set_params(opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 2,
                                        UInt32(Microphone.sampleRate), 1, 200_000)
        }
        guard result == 0 else {
            snd_pcm_close(opened)
            throw AudioDeviceError(device: device, code: result)
        }
        pcm = opened
        self.channels = channels
        chunks = HandOffQueue(capacity: Microphone.chunkCount, wakes: wakes)
        free = HandOffQueue(capacity: Microphone.chunkCount)
        for _ in 0..<Microphone.chunkCount { free.send(MicrophoneChunk(frames: Microphone.periodFrames, channels: channels)) }
        spare = MicrophoneChunk(frames: Microphone.periodFrames, channels: channels)
    }

    deinit {
        thread.stop()
        snd_pcm_close(pcm)
    }

    /// ALSA's name for the device's card and the format it gives, for the log.
    public var summary: String { "\(device), \(Microphone.sampleRate / 1000) kHz 16-bit \(channels == 1 ? "mono" : "stereo")" }

    /// Overruns recovered, and periods lost because the movie thread held every chunk.
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }
    public var periodsLost: Int { lostCount.load(ordering: .relaxed) }

    @discardableResult
    public func start() -> Bool {
        snd_pcm_start(pcm)
        return thread.start { self.run() }
    }

    public func stop() {
        thread.stop()
        snd_pcm_drop(pcm)
    }

    /// A chunk back, once its samples are encoded (the movie thread).
    public func giveBack(_ chunk: MicrophoneChunk) { free.send(chunk) }

    private func run() {
        // The chunk being filled: kept across a read that brought nothing (only the movie
        // thread sends chunks back to `free`).
        var chunk: MicrophoneChunk?
        while !thread.isStopping {
            let ready = snd_pcm_wait(pcm, 100)
            if ready < 0 { recover(Int32(ready)); continue }
            guard ready > 0 else { continue }
            let target = chunk ?? free.receive() ?? spare
            let read = snd_pcm_readi(pcm, target.samples, snd_pcm_uframes_t(Microphone.periodFrames))
            guard read > 0 else {
                if target !== spare { chunk = target }
                if read < 0 && read != -Int(EAGAIN) { recover(Int32(read)) }
                continue
            }
            // The first sample's time: what is still buffered and what was just read came
            // before now, one sample period each.
            var delay = snd_pcm_sframes_t(0)
            if snd_pcm_delay(pcm, &delay) < 0 { delay = 0 }
            let frames = Int64(max(delay, 0)) + Int64(read)
            target.count = read
            target.capturedAtNanoseconds = monotonicNanoseconds() - frames * 1_000_000_000 / Int64(Microphone.sampleRate)
            if target === spare {
                lostCount.wrappingAdd(1, ordering: .relaxed)
            } else if chunks.send(target) {
                chunk = nil
            } else {
                // (Cannot happen: there are as many chunks as the queue holds.)
                lostCount.wrappingAdd(1, ordering: .relaxed)
                chunk = target
            }
        }
    }

    /// An overrun (or a suspend) recovered, so reading goes on.
    private func recover(_ error: Int32) {
        overrunCount.wrappingAdd(1, ordering: .relaxed)
        if snd_pcm_recover(pcm, error, 1) == 0 { snd_pcm_start(pcm) }
    }
}
