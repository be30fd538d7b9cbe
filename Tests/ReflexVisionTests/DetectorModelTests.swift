import ReflexCore
import ReflexVision
import Testing

/// A board's analysis.conf: the model it names and its input.
@Suite("Detector model")
struct DetectorModelTests {
    @Test func anONNXModelInTheBoardsFolderWithItsInput() throws {
        let model = try DetectorModel.parse("model = yolox_nano.onnx\ninput = 320\n", boardFolder: "/usr/share/reflex/boards/x").get()
        #expect(model == DetectorModel(path: "/usr/share/reflex/boards/x/yolox_nano.onnx", inputSide: 320))
        #expect(model.kind == .yoloxONNX)
    }

    @Test func anONNXModelsInputIsYOLOXNanosUnlessSaid() throws {
        let model = try DetectorModel.parse("model = /opt/models/yolox_nano.onnx", boardFolder: "/b").get()
        #expect(model.path == "/opt/models/yolox_nano.onnx" && model.inputSide == 416)
        #expect(DetectorModel(path: "/m/ssd.pb").inputSide == nil && DetectorModel(path: "/m/ssd.pb").kind == .tensorflowSSD)
    }

    @Test func whatCannotBeUsedIsSaid() {
        #expect(DetectorModel.parse("input = 416", boardFolder: "/b") == .failure(.missingKey("model")))
        #expect(DetectorModel.parse("model = x.tflite", boardFolder: "/b") == .failure(.badValue(key: "model", value: "x.tflite")))
        #expect(DetectorModel.parse("model = x.onnx\ninput = 400", boardFolder: "/b") == .failure(.badValue(key: "input", value: "400")))
        // An SSD's input is its anchors': not the board's to choose.
        #expect(DetectorModel.parse("model = x.pb\ninput = 320", boardFolder: "/b") == .failure(.badValue(key: "input", value: "320")))
        #expect(DetectorModel.parse("model = x.onnx\nthreads = 2", boardFolder: "/b") == .failure(.unknownKey("threads")))
    }
}
