import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem

/// One recording being written: its file on the card, the MP4 writer feeding it, the H.264
/// encoder and (with a microphone) the AAC encoder feeding that. Each keyframe ends a
/// fragment, which is synced to the card.
final class MovieInProgress {
    let number: PhotoNumber
    let file: MovieFile
    let writer: MovieWriter
    let encoder: VideoEncoder
    let stream: Int32
    let sound: AudioEncoder?
    let soundStream: Int32
    let format: VideoFormat
    /// Frames encoded, and the last one's place (a slot the sensor left empty is skipped).
    private(set) var frames = 0
    private(set) var lastSlot: Int64 = -1

    /// A new movie numbered `number` on `card`, encoded by `encoder`; with sound when
    /// `soundChannels` is given (48 kHz).
    init(number: PhotoNumber, card: PhotoCard, format: VideoFormat, encoder choice: VideoEncoderChoice,
         soundChannels: Int?) throws {
        self.number = number
        self.format = format
        let file = try MovieFile(on: card, number: number)
        do {
            writer = try MovieWriter { bytes in file.append(bytes) }
            encoder = try VideoEncoder(choice, format: format, globalHeader: writer.needsGlobalHeader)
            stream = try writer.addStream(for: encoder.context!)
            if let soundChannels {
                let sound = try AudioEncoder(sampleRate: 48_000, channels: soundChannels, globalHeader: writer.needsGlobalHeader)
                soundStream = try writer.addStream(for: sound.context!)
                self.sound = sound
            } else {
                (sound, soundStream) = (nil, -1)
            }
            try writer.start()
        } catch {
            file.abandon()
            throw error
        }
        self.file = file
    }

    /// The recording's length: its frames' places at its rate, the last one lasting a frame.
    var seconds: Double { Double(lastSlot + 1) / Double(format.framesPerSecond) }

    /// Encodes one picture (XRGB at the movie's size) at `slot`; true when it began a new
    /// fragment, once the one before is durable on the card.
    @discardableResult
    func encode(_ picture: UnsafePointer<UInt32>, slot: Int64) throws -> Bool {
        guard slot > lastSlot else { return false }
        let keyframe = try encoder.encode(xrgb: picture, stride: format.width, index: slot, into: writer, stream: stream)
        frames += 1
        lastSlot = slot
        if keyframe {
            try writer.flush()
            try file.sync()
        }
        return keyframe
    }

    /// Samples for the sound track, the first at `index` (samples from time zero).
    func addSound(_ samples: UnsafePointer<Int16>, count: Int, index: Int64) throws {
        try sound?.add(samples, count: count, index: index, into: writer, stream: soundStream)
    }

    /// Where it will be once whole.
    var path: String { file.path }

    /// Ends the movie and shows it under its name; its path.
    func finish() throws -> String {
        try encoder.finish(into: writer, stream: stream)
        try sound?.finish(into: writer, stream: soundStream)
        try writer.finish()
        return try file.finish()
    }

    /// After a failure (a full card, an error): what was written up to the last whole
    /// fragment is kept and shown; nil when nothing was.
    func keepWhatWasWritten() -> String? {
        file.finishInterrupted() ? file.path : nil
    }
}
