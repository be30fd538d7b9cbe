/// Makes the text graph OpenCV's TensorFlow importer needs to run an SSD detector from the
/// TensorFlow Object Detection API. The frozen graph (`.pb`) holds the network and its weights,
/// but also a preprocessing loop and a postprocessing head (TensorArrays, while loops, a
/// non-maximum suppression) OpenCV cannot run. Given the graph as text (OpenCV's
/// `writeTextGraph`, weights left out), this keeps the network, joins it to the input, and
/// puts OpenCV's own SSD layers where TensorFlow's head was: the anchors (`PriorBox`, one per
/// feature map), a sigmoid over the class scores and `DetectionOutput` (decoding and
/// suppression). The importer then takes the weights from the `.pb` by name.
///
/// The anchors must be those the model was trained with (its pipeline.config); they are tied
/// to the input size, so the network runs at that size only.
public struct SSDTextGraph: Sendable {
    /// The model's `ssd_anchor_generator` and box coder.
    public struct Anchors: Sendable, Equatable {
        public var minimumScale = 0.2
        public var maximumScale = 0.95
        public var aspectRatios = [1.0, 2.0, 0.5, 3.0, 1.0 / 3]
        /// The first feature map gets three anchors only (the API's default).
        public var fewerBoxesInLowestLayer = true
        public var inputWidth = 300
        public var inputHeight = 300
        /// 1 / the box coder's scales (y, x, height, width: 10, 10, 5, 5).
        public var variance = [0.1, 0.1, 0.2, 0.2]

        public init() {}

        /// Anchor widths and heights in input pixels for feature map `layer` of `layers`.
        public func sizes(layer: Int, of layers: Int) -> (widths: [Double], heights: [Double]) {
            let side = Double(min(inputWidth, inputHeight))
            func scale(_ index: Int) -> Double {
                index >= layers ? 1 : minimumScale + (maximumScale - minimumScale) * Double(index) / Double(max(layers - 1, 1))
            }
            var widths: [Double], heights: [Double]
            if layer == 0 && fewerBoxesInLowestLayer {
                widths = [0.1, minimumScale * 2.0.squareRoot(), minimumScale * 0.5.squareRoot()]
                heights = [0.1, minimumScale / 2.0.squareRoot(), minimumScale / 0.5.squareRoot()]
            } else {
                widths = aspectRatios.map { scale(layer) * $0.squareRoot() }
                heights = aspectRatios.map { scale(layer) / $0.squareRoot() }
                let between = (scale(layer) * scale(layer + 1)).squareRoot()
                widths.append(between)
                heights.append(between)
            }
            return (widths.map { $0 * side }, heights.map { $0 * side })
        }
    }

    public struct GraphError: Error, CustomStringConvertible {
        public let description: String
    }

    /// One node as the text graph writes it: attributes kept as their text.
    struct Node: Equatable {
        var name: String
        var op: String
        var inputs: [String]
        var attributes: [(key: String, text: String)]

        static func == (a: Node, b: Node) -> Bool {
            a.name == b.name && a.op == b.op && a.inputs == b.inputs && a.attributes.map(\.key) == b.attributes.map(\.key)
        }
    }

    /// Operations OpenCV runs that belong to the network itself.
    static let networkOperations: Set<String> = [
        "Conv2D", "BiasAdd", "Add", "AddV2", "Relu", "Relu6", "Placeholder", "FusedBatchNorm", "FusedBatchNormV3",
        "DepthwiseConv2dNative", "ConcatV2", "Mul", "MaxPool", "AvgPool", "Sub", "Pad", "Mean", "ResizeNearestNeighbor",
    ]
    /// Parts of the graph OpenCV replaces or cannot run: anchors, box decoding, the preprocessing loop.
    static let replacedPrefixes = ["MultipleGridAnchorGenerator/", "Concatenate/", "Postprocessor/", "Preprocessor/map"]
    /// Attributes the importer does not read.
    static let unreadAttributes: Set<String> = ["T", "Tshape", "N", "Tidx", "Tdim", "use_cudnn_on_gpu", "Index", "Tperm",
                                                "is_training", "Tpaddings"]

    public let anchors: Anchors
    public let classes: Int

    /// `classes`: the classes the model tells apart, background not counted (1: persons).
    public init(classes: Int, anchors: Anchors = Anchors()) {
        self.classes = classes
        self.anchors = anchors
    }

    /// The importer's text graph from the frozen graph's text.
    public func make(from text: String) throws(GraphError) -> String {
        var nodes = Self.parse(text)
        guard let input = nodes.first(where: { $0.op == "Placeholder" }) else {
            throw GraphError(description: "the graph has no input (Placeholder)")
        }
        nodes = Self.withoutIdentities(nodes)
        let constants = Set(nodes.filter { $0.op == "Const" }.map(\.name))
        let removed = Set(nodes.filter { !Self.isNetwork($0) && $0.op != "Const" }.map(\.name))
        nodes = nodes.filter(Self.isNetwork).map { node in
            var node = node
            let hadLiveInput = node.inputs.contains { !constants.contains($0) }
            node.inputs.removeAll { removed.contains($0) }
            // The network's first layer read the preprocessing loop's output: it reads the input now.
            if hadLiveInput && node.inputs.allSatisfy({ constants.contains($0) }) && node.op != "Placeholder" {
                node.inputs.insert(input.name, at: 0)
            }
            node.attributes.removeAll { Self.unreadAttributes.contains($0.key) }
            return node
        }
        let layers = (0..<10).prefix { layer in nodes.contains { $0.name == "BoxPredictor_\(layer)/BoxEncodingPredictor/BiasAdd" } }.count
        guard layers > 0 else { throw GraphError(description: "no BoxPredictor_0/BoxEncodingPredictor: not an SSD with a convolutional box predictor") }
        for index in nodes.indices where nodes[index].name.hasPrefix("BoxPredictor_") && nodes[index].op == "Conv2D"
            && nodes[index].name.contains("/BoxEncodingPredictor/") {
            nodes[index].attributes.append(("loc_pred_transposed", Self.value("b: true")))
        }
        nodes = try Self.executionOrder(nodes)
        nodes += head(layers: layers, input: input.name)
        nodes = Self.withoutDeadEnds(nodes, keeping: "detection_out")
        return nodes.map(Self.text).joined()
    }

    /// OpenCV's SSD layers in place of TensorFlow's head.
    func head(layers: Int, input: String) -> [Node] {
        var nodes = [Self.constant("concat/axis_flatten", ints: [-1]), Self.constant("PriorBox/concat/axis", ints: [-2])]
        for label in ["ClassPredictor", "BoxEncodingPredictor"] {
            var flattened: [String] = []
            for layer in 0..<layers {
                let source = "BoxPredictor_\(layer)/\(label)/BiasAdd"
                nodes.append(Node(name: source + "/Flatten", op: "Flatten", inputs: [source], attributes: []))
                flattened.append(source + "/Flatten")
            }
            nodes.append(Node(name: "\(label)/concat", op: "ConcatV2", inputs: flattened + ["concat/axis_flatten"], attributes: []))
        }
        var priors: [String] = []
        for layer in 0..<layers {
            let (widths, heights) = anchors.sizes(layer: layer, of: layers)
            nodes.append(Node(name: "PriorBox_\(layer)", op: "PriorBox",
                              inputs: ["BoxPredictor_\(layer)/BoxEncodingPredictor/BiasAdd", input],
                              attributes: [("clip", Self.value("b: false")), ("flip", Self.value("b: false")),
                                           ("height", Self.tensor(heights)), ("variance", Self.tensor(anchors.variance)),
                                           ("width", Self.tensor(widths))]))
            priors.append("PriorBox_\(layer)")
        }
        nodes.append(Node(name: "PriorBox/concat", op: "ConcatV2", inputs: priors + ["concat/axis_flatten"], attributes: []))
        nodes.append(Self.constant("ClassPredictor/concat3d/shape", ints: [0, -1, classes + 1]))
        nodes.append(Node(name: "ClassPredictor/concat3d", op: "Reshape",
                          inputs: ["ClassPredictor/concat", "ClassPredictor/concat3d/shape"], attributes: []))
        nodes.append(Node(name: "ClassPredictor/concat/sigmoid", op: "Sigmoid", inputs: ["ClassPredictor/concat3d"], attributes: []))
        nodes.append(Node(name: "ClassPredictor/concat/sigmoid/Flatten", op: "Flatten",
                          inputs: ["ClassPredictor/concat/sigmoid"], attributes: []))
        nodes.append(Node(name: "detection_out", op: "DetectionOutput",
                          inputs: ["BoxEncodingPredictor/concat", "ClassPredictor/concat/sigmoid/Flatten", "PriorBox/concat"],
                          attributes: [("background_label_id", Self.value("i: 0")), ("code_type", Self.value("s: \"CENTER_SIZE\"")),
                                       ("confidence_threshold", Self.value("f: 0.01")), ("keep_top_k", Self.value("i: 100")),
                                       ("nms_threshold", Self.value("f: 0.6")),
                                       ("num_classes", Self.value("i: \(classes + 1)")), ("share_location", Self.value("b: true")),
                                       ("top_k", Self.value("i: 100"))]))
        return nodes
    }

    static func isNetwork(_ node: Node) -> Bool {
        node.op != "Const" && networkOperations.contains(node.op) && !replacedPrefixes.contains { node.name.hasPrefix($0) }
    }

    // MARK: reading and writing the text

    /// The nodes of a text graph as `writeTextGraph` writes it (a `node { … }` block each).
    static func parse(_ text: String) -> [Node] {
        var nodes: [Node] = []
        var current: Node?
        var depth = 0
        var attribute: (key: String, lines: [String])?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingPrefix(while: { $0 == " " })
            if depth == 0 {
                if line.hasPrefix("node {") { current = Node(name: "", op: "", inputs: [], attributes: []); depth = 1 }
                continue
            }
            if depth == 1 {
                if line == "}" {
                    if let node = current { nodes.append(node) }
                    current = nil
                    depth = 0
                } else if line.hasPrefix("name:") {
                    current?.name = quoted(line)
                } else if line.hasPrefix("op:") {
                    current?.op = quoted(line)
                } else if line.hasPrefix("input:") {
                    let input = quoted(line)
                    // Control dependencies order execution only: the importer does not need them.
                    if !input.hasPrefix("^") { current?.inputs.append(input) }
                } else if line.hasPrefix("attr {") {
                    attribute = ("", [])
                    depth = 2
                }
                continue
            }
            // Inside an attribute: its key, then its value's lines kept as they are.
            if line.hasSuffix("{") { depth += 1 }
            if line == "}" { depth -= 1 }
            if depth == 1 {
                if let finished = attribute { current?.attributes.append((finished.key, finished.lines.joined(separator: "\n"))) }
                attribute = nil
            } else if depth == 2 && line.hasPrefix("key:") {
                attribute?.key = quoted(line)
            } else {
                attribute?.lines.append(String(rawLine))
            }
        }
        return nodes
    }

    private static func quoted(_ line: Substring) -> String {
        guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return "" }
        return String(line[line.index(after: open)..<close])
    }

    static func text(_ node: Node) -> String {
        var text = "node {\n  name: \"\(node.name)\"\n  op: \"\(node.op)\"\n"
        for input in node.inputs { text += "  input: \"\(input)\"\n" }
        for (key, value) in node.attributes { text += "  attr {\n    key: \"\(key)\"\n\(value)\n  }\n" }
        return text + "}\n"
    }

    /// An attribute's value block with one field (`b: true`, `i: 4`, `f: 0.5`, `s: "x"`).
    static func value(_ field: String) -> String { "    value {\n      \(field)\n    }" }

    static func tensor(_ values: [Double]) -> String {
        "    value {\n      tensor {\n        dtype: DT_FLOAT\n        tensor_shape {\n          dim {\n            size: \(values.count)\n"
            + "          }\n        }\n" + values.map { "        float_val: \($0)\n" }.joined() + "      }\n    }"
    }

    static func constant(_ name: String, ints: [Int]) -> Node {
        let tensor = "    value {\n      tensor {\n        dtype: DT_INT32\n        tensor_shape {\n          dim {\n"
            + "            size: \(ints.count)\n          }\n        }\n" + ints.map { "        int_val: \($0)\n" }.joined()
            + "      }\n    }"
        return Node(name: name, op: "Const", inputs: [], attributes: [("value", tensor)])
    }

    // MARK: graph surgery

    /// The graph with every Identity node bypassed (its readers read its input).
    static func withoutIdentities(_ nodes: [Node]) -> [Node] {
        var alias: [String: String] = [:]
        for node in nodes where node.op == "Identity" || node.op == "IdentityN" {
            if let source = node.inputs.first { alias[node.name] = source }
        }
        func resolve(_ name: String) -> String {
            var name = name, hops = 0
            while let next = alias[name], hops < 64 { name = next; hops += 1 }
            return name
        }
        return nodes.filter { alias[$0.name] == nil }.map { node in
            var node = node
            node.inputs = node.inputs.map(resolve)
            return node
        }
    }

    /// The nodes ordered so each comes after the nodes it reads (inputs that are not nodes,
    /// the weights, do not count); ties keep the text's order.
    static func executionOrder(_ nodes: [Node]) throws(GraphError) -> [Node] {
        let index = Dictionary(nodes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var waiting = nodes.map { node in Set(node.inputs.compactMap { index[$0] }).count }
        var readers = [[Int]](repeating: [], count: nodes.count)
        for (position, node) in nodes.enumerated() {
            for source in Set(node.inputs.compactMap({ index[$0] })) { readers[source].append(position) }
        }
        var ready = (0..<nodes.count).filter { waiting[$0] == 0 }.reversed().map { $0 }
        var order: [Node] = []
        while let next = ready.popLast() {
            order.append(nodes[next])
            for reader in readers[next] {
                waiting[reader] -= 1
                if waiting[reader] == 0 { ready.append(reader) }
            }
        }
        guard order.count == nodes.count else { throw GraphError(description: "the network has a cycle") }
        return order
    }

    /// The graph without nodes whose output nothing reads, over and over, but `output`.
    static func withoutDeadEnds(_ nodes: [Node], keeping output: String) -> [Node] {
        var nodes = nodes
        while true {
            let read = Set(nodes.flatMap(\.inputs))
            let kept = nodes.filter { $0.name == output || read.contains($0.name) }
            if kept.count == nodes.count { return nodes }
            nodes = kept
        }
    }
}
