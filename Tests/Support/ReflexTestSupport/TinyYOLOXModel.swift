/// A YOLOX-shaped ONNX model small enough to write by hand, for the tests of the ONNX path
/// (no YOLOX weights can be had here): input `images` [1, 3, side, side]; for each stride 8,
/// 16 and 32 a convolution whose kernel is the stride (one window a cell) giving six channels,
/// reshaped to rows; the three grids concatenated and transposed to [1, N, 6], as YOLOX's own
/// export lays them out. Its one class is "white": a cell of the largest stride that is all
/// white scores 1 (objectness the cell's mean brightness, class score 1) and its box is the
/// cell itself; the smaller strides' cells score 0.
public enum TinyYOLOXModel {
    public static let strides = [8, 16, 32]

    /// The model file's bytes (ONNX, IR version 7, opset 11).
    public static func bytes(side: Int) -> [UInt8] {
        var model = ProtobufWriter()
        model.varint(1, 7)                                   // ir_version
        model.string(2, "reflex-tests")                      // producer_name
        model.message(7) { graph in                          // graph
            var grids: [String] = []
            for stride in strides {
                let name = "grid\(stride)"
                graph.message(1) { node(&$0, "Conv", inputs: ["images", "w\(stride)", "b\(stride)"], output: "conv\(stride)",
                                        ints: [("kernel_shape", [stride, stride]), ("strides", [stride, stride])]) }
                graph.message(1) { node(&$0, "Reshape", inputs: ["conv\(stride)", "rows"], output: name) }
                grids.append(name)
            }
            graph.message(1) { node(&$0, "Concat", inputs: grids, output: "all", int: ("axis", 2)) }
            graph.message(1) { node(&$0, "Transpose", inputs: ["all"], output: "output", ints: [("perm", [0, 2, 1])]) }
            graph.string(2, "tiny-yolox")
            for stride in strides {
                let (weights, biases) = convolution(stride: stride)
                graph.message(5) { floatTensor(&$0, "w\(stride)", dims: [6, 3, stride, stride], values: weights) }
                graph.message(5) { floatTensor(&$0, "b\(stride)", dims: [6], values: biases) }
            }
            graph.message(5) { tensor in                     // the rows' shape: [1, 6, -1]
                for dim in [3] { tensor.varint(1, Int64(dim)) }
                tensor.varint(2, 7)                          // INT64
                tensor.string(8, "rows")
                tensor.bytes(9, [Int64(1), 6, -1].flatMap { littleEndianBytes($0) })
            }
            graph.message(11) { valueInfo(&$0, "images", dims: [1, 3, side, side]) }
            let rows = strides.reduce(0) { $0 + (side / $1) * (side / $1) }
            graph.message(12) { valueInfo(&$0, "output", dims: [1, rows, 6]) }
        }
        model.message(8) { opset in                          // opset_import
            opset.string(1, "")
            opset.varint(2, 11)
        }
        return model.bytes
    }

    /// Channels: x and y offsets 0.5 (the cell's centre), log width and height 0 (one cell),
    /// objectness the mean brightness at the largest stride (else 0), class score 1.
    private static func convolution(stride: Int) -> (weights: [Float], biases: [Float]) {
        let window = 3 * stride * stride
        var weights = [Float](repeating: 0, count: 6 * window)
        if stride == strides.last! {
            for index in 0..<window { weights[4 * window + index] = 1 / Float(window * 255) }
        }
        return (weights, [0.5, 0.5, 0, 0, 0, 1])
    }

    private static func node(_ node: inout ProtobufWriter, _ operation: String, inputs: [String], output: String,
                             ints: [(String, [Int])] = [], int: (String, Int)? = nil) {
        for input in inputs { node.string(1, input) }
        node.string(2, output)
        node.string(3, output + "-node")
        node.string(4, operation)
        for (name, values) in ints {
            node.message(5) { attribute in
                attribute.string(1, name)
                for value in values { attribute.varint(8, Int64(value)) }
                attribute.varint(20, 7)                      // INTS
            }
        }
        if let (name, value) = int {
            node.message(5) { attribute in
                attribute.string(1, name)
                attribute.varint(3, Int64(value))
                attribute.varint(20, 2)                      // INT
            }
        }
    }

    private static func floatTensor(_ tensor: inout ProtobufWriter, _ name: String, dims: [Int], values: [Float]) {
        for dim in dims { tensor.varint(1, Int64(dim)) }
        tensor.varint(2, 1)                                  // FLOAT
        tensor.string(8, name)
        tensor.bytes(9, values.flatMap { littleEndianBytes($0.bitPattern) })
    }

    private static func valueInfo(_ info: inout ProtobufWriter, _ name: String, dims: [Int]) {
        info.string(1, name)
        info.message(2) { type in
            type.message(1) { tensor in
                tensor.varint(1, 1)                          // FLOAT
                tensor.message(2) { shape in
                    for dim in dims { shape.message(1) { $0.varint(1, Int64(dim)) } }
                }
            }
        }
    }

    private static func littleEndianBytes<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
