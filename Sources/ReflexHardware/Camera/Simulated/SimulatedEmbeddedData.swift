import ReflexCore
import ReflexISP

/// The embedded data the simulated CSI sensor sends beside each frame, as an IMX477 or
/// IMX708 does: two lines of CCS register data, as long and as packed as its picture's lines
/// would be on the link (RAW12), holding the exposure in lines, the gain code and the frame's
/// length that the frame was really taken with. The camera session reads the exposure back
/// from it as it would a real sensor's, instead of being told.
final class SimulatedEmbeddedData {
    /// Embedded lines a frame has (the IMX477 sends two).
    static let lines = 2
    static let packing = EmbeddedDataPacking.raw12
    let lineLength: Int
    private let buffers: [UnsafeMutableRawBufferPointer]

    /// One buffer for each of the frame buffers, for a picture `width` wide.
    init(bufferCount: Int, width: Int) {
        lineLength = width * 12 / 8
        buffers = (0..<bufferCount).map { _ in
            .allocate(byteCount: SimulatedEmbeddedData.lines * width * 12 / 8, alignment: 64)
        }
    }

    deinit { for buffer in buffers { buffer.deallocate() } }

    /// Writes buffer `index`'s registers: `exposureLines` and `gainCode` at CCS's addresses
    /// (the fine integration time before them left out, as a gap a real dump can have), and
    /// the frame length. Returns the bytes to hand over with the frame.
    func write(index: Int, exposureLines: Int, gainCode: Int, frameLengthLines: Int) -> UnsafeRawBufferPointer {
        let buffer = buffers[index]
        var writer = EmbeddedDataWriter(into: buffer, packing: SimulatedEmbeddedData.packing, lineLength: lineLength)
        writer.seek(to: 0x0200)
        writer.skip()
        writer.skip()
        // (Written out, not looped over an array: this runs each frame, and an array allocates.)
        writer.value(UInt8(truncatingIfNeeded: exposureLines >> 8))
        writer.value(UInt8(truncatingIfNeeded: exposureLines))
        writer.value(UInt8(truncatingIfNeeded: gainCode >> 8))
        writer.value(UInt8(truncatingIfNeeded: gainCode))
        writer.seek(to: 0x0340)
        writer.value(UInt8(truncatingIfNeeded: frameLengthLines >> 8))
        writer.value(UInt8(truncatingIfNeeded: frameLengthLines))
        writer.finish()
        return UnsafeRawBufferPointer(buffer)
    }
}
