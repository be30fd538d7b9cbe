import ReflexCore
import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// Reads the output of a YOLOX-style detector (YOLOX, exported to ONNX as its own tools do):
/// a row a candidate, the grid of each stride in turn and its cells row by row; each row the
/// centre as an offset in cells from the cell's corner, the width and height as logarithms of
/// cells, then the objectness and each class's score (both already through a sigmoid: the
/// export keeps that in the graph). Pure: the network runs elsewhere.
public struct YOLOXDecoder: Sendable, Equatable {
    public let inputWidth: Int
    public let inputHeight: Int
    public let strides: [Int]
    /// Boxes overlapping this much (over their union) are one person: the better one is kept.
    public static let suppressionOverlap = 0.45
    /// At most this many persons a picture.
    public static let mostPersons = 100

    public struct Mismatch: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(inputWidth: Int, inputHeight: Int, strides: [Int] = [8, 16, 32]) {
        (self.inputWidth, self.inputHeight, self.strides) = (inputWidth, inputHeight, strides)
    }

    /// How many rows a model of this input and these strides gives.
    public var rowCount: Int { strides.reduce(0) { $0 + (inputWidth / $1) * (inputHeight / $1) } }

    /// The persons (`personClass`, 0 in COCO's order) scoring at least `threshold`
    /// (objectness × class score) in `output` (`rows` rows of `columns` floats) of a picture
    /// `pictureWidth` x `pictureHeight` letterboxed into the input at `scale`, as boxes in
    /// fractions of the picture; overlapping boxes suppressed, the most confident first.
    public func persons(in output: UnsafeBufferPointer<Float>, rows: Int, columns: Int, personClass: Int = 0,
                        threshold: Double, scale: Double, pictureWidth: Int, pictureHeight: Int) throws(Mismatch) -> [PersonDetection] {
        guard rows == rowCount else {
            throw Mismatch(description: "the model gives \(rows) candidates, a YOLOX model of \(inputWidth)x\(inputHeight) "
                           + "input gives \(rowCount): its input size is not the one configured")
        }
        guard columns > 5 + personClass, output.count >= rows * columns, scale > 0 else {
            throw Mismatch(description: "the model's rows have \(columns) values, not 5 and a score for each class")
        }
        var candidates: [PersonDetection] = []
        var row = 0
        for stride in strides {
            let across = inputWidth / stride, down = inputHeight / stride
            for cellY in 0..<down {
                for cellX in 0..<across {
                    defer { row += 1 }
                    let values = output.baseAddress! + row * columns
                    let score = Double(values[4]) * Double(values[5 + personClass])
                    guard score >= threshold else { continue }
                    let centreX = (Double(values[0]) + Double(cellX)) * Double(stride)
                    let centreY = (Double(values[1]) + Double(cellY)) * Double(stride)
                    let width = Double(values[2]).clampedExponent * Double(stride)
                    let height = Double(values[3]).clampedExponent * Double(stride)
                    if let box = pictureBox(centreX: centreX, centreY: centreY, width: width, height: height, scale: scale,
                                            pictureWidth: pictureWidth, pictureHeight: pictureHeight) {
                        candidates.append(PersonDetection(box: box, confidence: score))
                    }
                }
            }
        }
        return Self.suppressed(candidates)
    }

    /// A box in the input's pixels as fractions of the picture, cut to it; nil if nothing is left.
    private func pictureBox(centreX: Double, centreY: Double, width: Double, height: Double, scale: Double,
                            pictureWidth: Int, pictureHeight: Int) -> FractionalBox? {
        let pictureW = Double(pictureWidth), pictureH = Double(pictureHeight)
        let left = max((centreX - width / 2) / scale, 0), top = max((centreY - height / 2) / scale, 0)
        let right = min((centreX + width / 2) / scale, pictureW), bottom = min((centreY + height / 2) / scale, pictureH)
        guard right > left, bottom > top else { return nil }
        return FractionalBox(x: left / pictureW, y: top / pictureH, width: (right - left) / pictureW, height: (bottom - top) / pictureH)
    }

    /// Greedy non-maximum suppression: each box kept unless a more confident kept one overlaps it.
    static func suppressed(_ candidates: [PersonDetection]) -> [PersonDetection] {
        var kept: [PersonDetection] = []
        for candidate in candidates.sorted(by: { $0.confidence > $1.confidence }) where kept.count < mostPersons {
            if !kept.contains(where: { $0.box.overlap(candidate.box) >= suppressionOverlap }) { kept.append(candidate) }
        }
        return kept
    }
}

private extension Double {
    /// e^self, kept finite: an untrained or damaged model's logarithms can be anything.
    var clampedExponent: Double { exp(Swift.min(Swift.max(self, -20), 20)) }
}
