import Foundation
import ReflexVision
import Testing

/// The text graph OpenCV's importer needs, made from a TensorFlow SSD's own graph: a small
/// graph laid out as the Object Detection API's (its preprocessing loop, a feature extractor,
/// one box predictor, its postprocessing).
@Suite("SSD text graph")
struct SSDTextGraphTests {
    static func node(_ name: String, _ op: String, _ inputs: [String] = [], attributes: String = "") -> String {
        "node {\n  name: \"\(name)\"\n  op: \"\(op)\"\n" + inputs.map { "  input: \"\($0)\"\n" }.joined() + attributes + "}\n"
    }

    static let typeT = "  attr {\n    key: \"T\"\n    value {\n      type: DT_FLOAT\n    }\n  }\n"
    static let strides = "  attr {\n    key: \"strides\"\n    value {\n      list {\n        i: 1\n        i: 2\n      }\n    }\n  }\n"

    /// Written as writeTextGraph writes it: constants first, not in execution order.
    static let tensorFlowGraph = [
        node("Preprocessor/mul/x", "Const"),
        node("FeatureExtractor/Conv/weights", "Const"),
        node("BoxPredictor_0/BoxEncodingPredictor/weights", "Const"),
        node("BoxPredictor_0/ClassPredictor/weights", "Const"),
        node("Postprocessor/Decode", "Exp", ["BoxPredictor_0/BoxEncodingPredictor/BiasAdd"]),
        node("BoxPredictor_0/ClassPredictor/BiasAdd", "BiasAdd", ["BoxPredictor_0/ClassPredictor/Conv2D", "BoxPredictor_0/ClassPredictor/biases/read"], attributes: typeT),
        node("BoxPredictor_0/ClassPredictor/biases/read", "Identity", ["BoxPredictor_0/ClassPredictor/biases"]),
        node("BoxPredictor_0/ClassPredictor/biases", "Const"),
        node("image_tensor", "Placeholder"),
        node("Preprocessor/map/TensorArrayStack/TensorArrayGatherV3", "TensorArrayGatherV3", ["image_tensor"]),
        node("Preprocessor/mul", "Mul", ["Preprocessor/map/TensorArrayStack/TensorArrayGatherV3", "Preprocessor/mul/x"], attributes: typeT),
        node("Preprocessor/sub", "Sub", ["Preprocessor/mul", "Preprocessor/mul/x"]),
        node("FeatureExtractor/Conv/weights/read", "Identity", ["FeatureExtractor/Conv/weights"]),
        node("FeatureExtractor/Conv/Conv2D", "Conv2D", ["Preprocessor/sub", "FeatureExtractor/Conv/weights/read", "^Preprocessor/mul"],
             attributes: typeT + strides),
        node("FeatureExtractor/Conv/Relu6", "Relu6", ["FeatureExtractor/Conv/Conv2D"]),
        node("BoxPredictor_0/BoxEncodingPredictor/Conv2D", "Conv2D", ["FeatureExtractor/Conv/Relu6", "BoxPredictor_0/BoxEncodingPredictor/weights"]),
        node("BoxPredictor_0/BoxEncodingPredictor/BiasAdd", "BiasAdd", ["BoxPredictor_0/BoxEncodingPredictor/Conv2D", "BoxPredictor_0/ClassPredictor/biases"]),
        node("BoxPredictor_0/ClassPredictor/Conv2D", "Conv2D", ["FeatureExtractor/Conv/Relu6", "BoxPredictor_0/ClassPredictor/weights"]),
        node("MultipleGridAnchorGenerator/Meshgrid", "Mul", ["image_tensor", "Preprocessor/mul/x"]),
        node("FeatureExtractor/Unused/Shape", "Shape", ["FeatureExtractor/Conv/Relu6"]),
    ].joined()

    /// The made graph's nodes: name, op and inputs, in order.
    static func nodes(_ text: String) -> [(name: String, op: String, inputs: [String])] {
        text.components(separatedBy: "node {\n").dropFirst().map { block in
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            // (Safe access: a made graph missing a field fails the checks, not the test run.)
            func value(_ line: String) -> String {
                line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
            }
            return (value(lines.first { $0.hasPrefix("name:") } ?? ""), value(lines.first { $0.hasPrefix("op:") } ?? ""),
                    lines.filter { $0.hasPrefix("input:") }.map(value))
        }
    }

    @Test func theNetworkIsKeptJoinedToTheInputAndOrderedForExecution() throws {
        let made = try SSDTextGraph(classes: 1).make(from: Self.tensorFlowGraph)
        let nodes = Self.nodes(made)
        let names = nodes.map(\.name)
        #expect(!names.contains { $0.hasPrefix("Postprocessor/") || $0.hasPrefix("Preprocessor/map") || $0.hasPrefix("MultipleGridAnchorGenerator/") })
        #expect(!names.contains("Preprocessor/mul/x"), "constants are weights: the importer takes them from the .pb")
        #expect(!names.contains { $0.hasSuffix("/read") }, "identities are bypassed")
        #expect(!names.contains("FeatureExtractor/Unused/Shape"), "what the network does not run goes")
        let mul = try #require(nodes.first { $0.name == "Preprocessor/mul" })
        #expect(mul.inputs == ["image_tensor", "Preprocessor/mul/x"], "the first layer reads the input, not the loop")
        let conv = try #require(nodes.first { $0.name == "FeatureExtractor/Conv/Conv2D" })
        #expect(conv.inputs == ["Preprocessor/sub", "FeatureExtractor/Conv/weights"], "weights by name, control inputs dropped")
        for (position, node) in nodes.enumerated() {
            for input in node.inputs {
                if let source = names.firstIndex(of: input) { #expect(source < position, "\(node.name) runs after \(input)") }
            }
        }
        #expect(names.first == "image_tensor")
        #expect(names.last == "detection_out")
    }

    @Test func openCVsSSDHeadReplacesTensorFlowsWithTheModelsAnchors() throws {
        let made = try SSDTextGraph(classes: 1).make(from: Self.tensorFlowGraph)
        let nodes = Self.nodes(made)
        let output = try #require(nodes.first { $0.name == "detection_out" })
        #expect(output.op == "DetectionOutput")
        #expect(output.inputs == ["BoxEncodingPredictor/concat", "ClassPredictor/concat/sigmoid/Flatten", "PriorBox/concat"])
        #expect(made.contains("key: \"num_classes\"\n    value {\n      i: 2\n"), "persons and the background")
        let prior = try #require(nodes.first { $0.name == "PriorBox_0" })
        #expect(prior.inputs == ["BoxPredictor_0/BoxEncodingPredictor/BiasAdd", "image_tensor"])
        // The lowest layer's three anchors: 0.1, and 0.2 at aspect 2 and ½, of 300 pixels.
        let priorBlock = try #require(made.components(separatedBy: "node {\n").first { $0.contains("name: \"PriorBox_0\"") })
        let widthBlock = try #require(priorBlock.components(separatedBy: "key: \"width\"").dropFirst().first)
            .components(separatedBy: "  attr {")[0]
        let widths = widthBlock.split(separator: "\n").filter { $0.contains("float_val:") }
            .compactMap { Double($0.split(separator: " ").last!) }
        let expected = [30, 0.2 * 2.0.squareRoot() * 300, 0.2 * 0.5.squareRoot() * 300]
        #expect(widths.count == 3 && zip(widths, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(widths)")
        let box = try #require(made.components(separatedBy: "node {\n").first {
            $0.contains("name: \"BoxPredictor_0/BoxEncodingPredictor/Conv2D\"")
        })
        #expect(box.contains("key: \"loc_pred_transposed\""), "TensorFlow's boxes are y, x, h, w")
        #expect(!made.contains("key: \"T\""), "attributes the importer does not read go")
        #expect(made.contains("key: \"strides\"\n    value {\n      list {\n        i: 1\n        i: 2\n"), "the others stay as they were")
    }

    @Test func anchorsFollowTheTrainingConfiguration() throws {
        let anchors = SSDTextGraph.Anchors()
        let (widths, heights) = anchors.sizes(layer: 1, of: 6)
        // Scale 0.35 at aspect ratios 1, 2, ½, 3, ⅓, and one between 0.35 and the next (0.5).
        try #require(widths.count == 6 && heights.count == 6)
        #expect(abs(widths[0] - 105) < 1e-9 && abs(heights[0] - 105) < 1e-9)
        #expect(abs(widths[1] - 0.35 * 2.0.squareRoot() * 300) < 1e-9)
        #expect(abs(widths[5] - (0.35 * 0.5).squareRoot() * 300) < 1e-9)
        let lastLayer = anchors.sizes(layer: 5, of: 6).widths
        try #require(lastLayer.count == 6)
        #expect(abs(lastLayer[5] - 0.95.squareRoot() * 300) < 1e-9, "the last layer's extra: √(0.95·1)")
    }

    @Test func aGraphThatIsNoSSDIsAClearError() {
        #expect(throws: SSDTextGraph.GraphError.self) { try SSDTextGraph(classes: 1).make(from: Self.node("x", "Conv2D")) }
        let noPredictor = Self.node("image_tensor", "Placeholder") + Self.node("c", "Conv2D", ["image_tensor"])
        #expect {
            try SSDTextGraph(classes: 1).make(from: noPredictor)
        } throws: { error in
            "\(error)".contains("BoxPredictor_0")
        }
    }
}
