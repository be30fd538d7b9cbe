import ReflexCore

/// The person detector a board runs instead of the one shipped (its `analysis.conf`):
/// `model = yolox_nano.onnx`, a file in the board's folder or an absolute path, and for an
/// ONNX model `input = 416`, the side of its square input (416, YOLOX-nano's, when not said).
/// A `.pb` is a TensorFlow SSD like the shipped one; an `.onnx` a YOLOX-style detector.
public struct DetectorModel: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case tensorflowSSD, yoloxONNX
    }

    public var path: String
    /// The ONNX model's input side; nil for an SSD, whose anchors fix it at 300.
    public var inputSide: Int?
    /// YOLOX-nano's and YOLOX-tiny's input.
    public static let defaultONNXInputSide = 416

    public init(path: String, inputSide: Int? = nil) {
        self.path = path
        self.inputSide = path.hasSuffix(".onnx") ? inputSide ?? Self.defaultONNXInputSide : nil
    }

    public var kind: Kind { path.hasSuffix(".onnx") ? .yoloxONNX : .tensorflowSSD }

    /// analysis.conf's text; a relative `model` is in `boardFolder`.
    public static func parse(_ text: String, boardFolder: String) -> Result<DetectorModel, KeyValueText.ConfigurationProblem> {
        var path: String?, side: Int?
        let problem = KeyValueText.readConfiguration(text) { key, value in
            switch key {
            case "model":
                guard value.hasSuffix(".onnx") || value.hasSuffix(".pb") else { return .badValue }
                path = value.hasPrefix("/") ? value : boardFolder + "/" + value
            case "input":
                // YOLOX's grids need a multiple of its largest stride.
                guard let number = Int(value), (32...1280).contains(number), number % 32 == 0 else { return .badValue }
                side = number
            default: return .unknownKey
            }
            return .accepted
        }
        if let problem { return .failure(problem) }
        guard let path else { return .failure(.missingKey("model")) }
        // An SSD's anchors are its training's: its input is not the board's to choose.
        if let side, !path.hasSuffix(".onnx") { return .failure(.badValue(key: "input", value: String(side))) }
        return .success(DetectorModel(path: path, inputSide: side))
    }
}
