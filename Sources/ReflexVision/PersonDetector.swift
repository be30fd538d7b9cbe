import CVision
import ReflexCore
import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// Finds persons in an RGB picture through OpenCV's DNN module, on the calling thread alone.
/// The shipped model is a TensorFlow frozen graph (SSDLite-MobileNetV2 fine-tuned on persons,
/// see Models/README.md) whose text graph is made when the detector opens (`SSDTextGraph`),
/// so the `.pb` is the only file a board needs; a board may name a YOLOX-style ONNX model
/// instead (`DetectorModel`), whose output `YOLOXDecoder` reads.
public final class PersonDetector {
    /// The model's file name, where the package installs it (`share/reflex/models/`) and where
    /// `Models/fetch` puts it in a clone (`Models/`).
    public static let modelFileName = "ssdlite-mobilenet-v2-persons.pb"
    public static let installedModel = "/usr/share/reflex/models/" + modelFileName
    /// The SSD's input: its anchors are tied to this size.
    public static let inputSide = 300
    /// The class the SSD gives persons (0 is the background).
    static let personClass = 1

    private let detector: OpaquePointer
    /// An ONNX model's: how its rows are read, and where they are copied (kept: the
    /// analysis runs ten times a second).
    private let yolox: YOLOXDecoder?
    private var output: [Float] = []
    /// How long the network itself took on the last picture (OpenCV's profile), in ms.
    public var forwardMilliseconds: Double { reflex_detector_forward_ms(detector) }
    /// The side of the network's square input.
    public var networkInputSide: Int { yolox?.inputWidth ?? Self.inputSide }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens the model at `modelPath` (the shipped SSD, or a board's `DetectorModel`); a clear
    /// error if it is missing or not a detector of its kind.
    public convenience init(modelPath: String = PersonDetector.installedModel) throws(Failure) {
        try self.init(model: DetectorModel(path: modelPath))
    }

    public init(model: DetectorModel) throws(Failure) {
        let modelPath = model.path
        guard access(modelPath, R_OK) == 0 else {
            throw Failure(description: "no person detector model at \(modelPath)")
        }
        var message = [CChar](repeating: 0, count: 512)
        switch model.kind {
        case .yoloxONNX:
            let side = model.inputSide ?? DetectorModel.defaultONNXInputSide
            guard let opened = reflex_detector_open_onnx(modelPath, Int32(side), Int32(side), &message, message.count) else {
                throw Failure(description: "OpenCV cannot load \(modelPath): \(Self.text(message))")
            }
            detector = opened
            let decoder = YOLOXDecoder(inputWidth: side, inputHeight: side)
            yolox = decoder
            // COCO's 80 classes; a model of more is given more room at its first picture.
            output = [Float](repeating: 0, count: decoder.rowCount * 85)
        case .tensorflowSSD:
            let graph: String
            do {
                graph = try SSDTextGraph(classes: 1).make(from: try Self.textGraph(of: modelPath))
            } catch let failure as SSDTextGraph.GraphError {
                throw Failure(description: "\(modelPath): \(failure.description)")
            } catch {
                throw Failure(description: "\(modelPath): \(error)")
            }
            let opened = graph.withCString { text in
                reflex_detector_open(modelPath, text, strlen(text), Int32(Self.inputSide), Int32(Self.inputSide), &message, message.count)
            }
            guard let opened else {
                throw Failure(description: "OpenCV cannot load \(modelPath): \(Self.text(message))")
            }
            detector = opened
            yolox = nil
        }
    }

    deinit { reflex_detector_close(detector) }

    /// The model for a binary at `executablePath`: `$REFLEX_MODEL` if set, else the first of
    /// `share/reflex/models/` beside an installed binary and `Models/` above one built in a
    /// clone that holds it; nil where there is none (the camera runs without auto-zoom).
    public static func locateModel(environment: String?, executablePath: String) -> String? {
        if let environment, !environment.isEmpty { return environment }
        return ResourceSearch.candidates(executablePath: executablePath, installed: "models", inRepository: "Models")
            .map { $0 + "/" + modelFileName }
            .first { access($0, R_OK) == 0 }
    }

    /// Persons scoring at least `threshold` in an RGB picture (3 bytes a pixel, rows `stride`
    /// bytes apart), as boxes in fractions of the picture.
    public func detect(rgb: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                       threshold: Double = 0.5) throws(Failure) -> [PersonDetection] {
        if let yolox { return try detectYOLOX(yolox, rgb: rgb, width: width, height: height, stride: stride, threshold: threshold) }
        var boxes = [reflex_box](repeating: reflex_box(), count: 100)
        var message = [CChar](repeating: 0, count: 512)
        let count = reflex_detector_detect(detector, rgb, Int32(width), Int32(height), Int32(stride), Int32(Self.personClass),
                                           Float(threshold), &boxes, Int32(boxes.count), &message, message.count)
        guard count >= 0 else { throw Failure(description: "detection failed: \(Self.text(message))") }
        return boxes.prefix(Int(count)).map { box in
            PersonDetection(box: FractionalBox(x: Double(box.x), y: Double(box.y), width: Double(box.width), height: Double(box.height)),
                            confidence: Double(box.score))
        }
    }

    /// The ONNX model's persons: the picture letterboxed into its input, its rows read.
    private func detectYOLOX(_ decoder: YOLOXDecoder, rgb: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                             threshold: Double) throws(Failure) -> [PersonDetection] {
        var message = [CChar](repeating: 0, count: 512)
        var rows: Int32 = 0, columns: Int32 = 0, scale: Float = 0
        func forward() -> Int32 {
            output.withUnsafeMutableBufferPointer { buffer in
                reflex_detector_forward_letterboxed(detector, rgb, Int32(width), Int32(height), Int32(stride), buffer.baseAddress!,
                                                    buffer.count, &rows, &columns, &scale, &message, message.count)
            }
        }
        var status = forward()
        if status != 0, Int(rows) * Int(columns) > output.count {
            output = [Float](repeating: 0, count: Int(rows) * Int(columns))
            status = forward()
        }
        guard status == 0 else { throw Failure(description: "detection failed: \(Self.text(message))") }
        do {
            return try output.withUnsafeBufferPointer { buffer throws(YOLOXDecoder.Mismatch) in
                try decoder.persons(in: buffer, rows: Int(rows), columns: Int(columns), threshold: threshold,
                                    scale: Double(scale), pictureWidth: width, pictureHeight: height)
            }
        } catch {
            throw Failure(description: "detection failed: \(error.description)")
        }
    }

    /// A C string's text (up to its terminating zero).
    static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func text(_ characters: UnsafePointer<CChar>?) -> String {
        guard let characters else { return "" }
        return text(Array(UnsafeBufferPointer(start: characters, count: strlen(characters))))
    }

    /// The frozen graph as text, through OpenCV (written to a temporary file and read back).
    static func textGraph(of modelPath: String) throws(Failure) -> String {
        var template = Array("/tmp/reflex-graph-XXXXXX\0".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Failure(description: "cannot make a temporary file: \(Self.text(strerror(errno)))") }
        close(descriptor)
        let path = Self.text(template)
        defer { unlink(path) }
        var message = [CChar](repeating: 0, count: 512)
        guard reflex_write_text_graph(modelPath, path, &message, message.count) == 0 else {
            throw Failure(description: "OpenCV cannot read \(modelPath): \(Self.text(message))")
        }
        guard let file = fopen(path, "r") else { throw Failure(description: "cannot read back \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
