import ReflexCore
import ReflexISP
import ReflexVision
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A YOLOX-style model's rows read as persons: the grids in order, offsets and logarithms
/// decoded, the letterbox undone, overlapping boxes suppressed.
@Suite("YOLOX decoder")
struct YOLOXDecoderTests {
    /// 64x64 input: 8x8 cells of 8, 4x4 of 16, 2x2 of 32, 84 rows of 6 values (one class).
    static let decoder = YOLOXDecoder(inputWidth: 64, inputHeight: 64)
    static let columns = 6

    /// The row of cell (`x`, `y`) of `stride`'s grid.
    static func row(stride: Int, x: Int, y: Int) -> Int {
        var row = 0
        for earlier in decoder.strides where earlier < stride { row += (64 / earlier) * (64 / earlier) }
        return row + y * (64 / stride) + x
    }

    static func output(_ candidates: [(row: Int, values: [Float])]) -> [Float] {
        var output = [Float](repeating: 0, count: decoder.rowCount * columns)
        for (row, values) in candidates { output.replaceSubrange(row * columns..<(row + 1) * columns, with: values) }
        return output
    }

    @Test func aCandidatesBoxIsItsCellsOffsetAndSizeInThePicture() throws {
        // Stride 16, cell (1, 2): centre (1.5, 2.0) cells = (24, 32) px, 2 x 2 cells = 32 x 32
        // px: (8, 16)…(40, 48) in the input; the picture (128 x 128) went in at half its size.
        let output = Self.output([(Self.row(stride: 16, x: 1, y: 2), [0.5, 0, Float(log(2.0)), Float(log(2.0)), 0.9, 0.8])])
        let found = try output.withUnsafeBufferPointer {
            try Self.decoder.persons(in: $0, rows: Self.decoder.rowCount, columns: Self.columns, threshold: 0.5, scale: 0.5,
                                     pictureWidth: 128, pictureHeight: 128)
        }
        try #require(found.count == 1, "\(found)")
        #expect(abs(found[0].confidence - 0.72) < 1e-6)
        let box = found[0].box
        #expect(abs(box.x - 0.125) < 1e-6 && abs(box.y - 0.25) < 1e-6 && abs(box.width - 0.5) < 1e-6 && abs(box.height - 0.5) < 1e-6,
                "\(box)")
    }

    @Test func overlappingBoxesAreOnePersonAndWeakOnesAreLeftOut() throws {
        let output = Self.output([
            (Self.row(stride: 32, x: 0, y: 0), [0.5, 0.5, 0, 0, 0.95, 1]),     // (0, 0)…(32, 32)
            (Self.row(stride: 8, x: 2, y: 2), [0, 0, Float(log(4.0)), Float(log(4.0)), 0.9, 0.9]),   // (0, 0)…(32, 32), less sure
            (Self.row(stride: 8, x: 7, y: 7), [0.5, 0.5, 0, 0, 0.9, 0.4]),     // 0.36: too weak
            (Self.row(stride: 16, x: 3, y: 3), [0.5, 0.5, 0, 0, 0.7, 1]),      // (48, 48)…(64, 64): someone else
        ])
        let found = try output.withUnsafeBufferPointer {
            try Self.decoder.persons(in: $0, rows: Self.decoder.rowCount, columns: Self.columns, threshold: 0.5, scale: 1,
                                     pictureWidth: 64, pictureHeight: 64)
        }
        #expect(found.count == 2 && abs(found[0].confidence - 0.95) < 1e-6 && abs(found[1].confidence - 0.7) < 1e-6, "\(found)")
        #expect(found.last.map { abs($0.box.x - 0.75) < 1e-6 && abs($0.box.width - 0.25) < 1e-6 } == true)
    }

    /// The grey below a letterboxed picture is no part of it: a box reaching into it is cut.
    @Test func aBoxIsCutToThePicture() throws {
        let output = Self.output([(Self.row(stride: 32, x: 1, y: 0), [0.5, 1.0, Float(log(2.0)), Float(log(2.0)), 1, 1])])
        let found = try output.withUnsafeBufferPointer {
            // A 64 x 32 picture at scale 1: the box (16, 0)…(80, 64) is cut to (16, 0)…(64, 32).
            try Self.decoder.persons(in: $0, rows: Self.decoder.rowCount, columns: Self.columns, threshold: 0.5, scale: 1,
                                     pictureWidth: 64, pictureHeight: 32)
        }
        let box = try #require(found.first?.box)
        #expect(abs(box.x - 0.25) < 1e-6 && abs(box.width - 0.75) < 1e-6 && box.y == 0 && abs(box.height - 1) < 1e-6, "\(box)")
    }

    @Test func aModelOfAnotherInputSizeIsAClearError() {
        let output = [Float](repeating: 0, count: 100 * Self.columns)
        #expect {
            try output.withUnsafeBufferPointer {
                try Self.decoder.persons(in: $0, rows: 100, columns: Self.columns, threshold: 0.5, scale: 1,
                                         pictureWidth: 64, pictureHeight: 64)
            }
        } throws: { ($0 as? YOLOXDecoder.Mismatch)?.description.contains("its input size is not the one configured") == true }
    }
}
