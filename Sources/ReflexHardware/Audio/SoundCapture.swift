import ReflexSystem

/// Where a movie's sound comes from while it records: periods of samples handed over in
/// chunks the movie thread gives back once encoded. The board's is `Microphone` (ALSA); a
/// test gives one that models what no host here can make (a board slower than its sound).
public protocol SoundCapture: AnyObject, Sendable {
    /// Chunks read, for the movie thread.
    var chunks: HandOffQueue<MicrophoneChunk> { get }
    var channels: Int { get }
    /// The device and the format it gives, for the log.
    var summary: String { get }
    /// Overruns recovered, and periods lost because the movie thread held every chunk.
    var overruns: Int { get }
    var periodsLost: Int { get }
    @discardableResult func start() -> Bool
    func stop()
    /// A chunk back, once its samples are encoded.
    func giveBack(_ chunk: MicrophoneChunk)
}

/// Opens the capture named by a board (an ALSA PCM name), its chunks' arrival signalled on
/// `wakes`; throws with the device's reason.
public typealias SoundCaptureOpener = @Sendable (_ device: String, _ wakes: EventSignal) throws -> any SoundCapture

extension Microphone: SoundCapture {
    /// The board's microphone through ALSA.
    public static let opener: SoundCaptureOpener = { device, wakes in try Microphone(device: device, wakes: wakes) }
}
