import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem

/// One recording being written: its file on the card, the MP4 writer feeding it and the
/// H.264 encoder feeding that. Each keyframe ends a fragment, which is synced to the card.
final class MovieInProgress {
    let number: PhotoNumber
    let file: MovieFile
    let writer: MovieWriter
    let encoder: VideoEncoder
    let stream: Int32
    let format: VideoFormat
    /// Frames encoded, and the last one's place (a slot the sensor left empty is skipped).
    private(set) var frames = 0
    private(set) var lastSlot: Int64 = -1

    /// A new movie numbered `number` on `card`, encoded by `encoder`.
    init(number: PhotoNumber, card: PhotoCard, format: VideoFormat, encoder choice: VideoEncoderChoice) throws {
        self.number = number
        self.format = format
        let file = try MovieFile(on: card, number: number)
        do {
            writer = try MovieWriter { bytes in file.append(bytes) }
            encoder = try VideoEncoder(choice, format: format, globalHeader: writer.needsGlobalHeader)
            stream = try writer.addStream(for: encoder.context!)
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
            writer.flush()
            try file.sync()
        }
        return keyframe
    }

    /// Ends the movie and shows it under its name; its path.
    func finish() throws -> String {
        try encoder.finish(into: writer, stream: stream)
        try writer.finish()
        return try file.finish()
    }

    /// After a failure (a full card, an error): what was written up to the last whole
    /// fragment is kept and shown; nil when nothing was.
    func keepWhatWasWritten() -> String? {
        file.finishInterrupted() ? file.path : nil
    }
}
