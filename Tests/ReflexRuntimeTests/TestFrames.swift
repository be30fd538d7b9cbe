import ReflexHardware
import ReflexISP

extension SensorFrame {
    /// A raw frame made by a test, as a session would hand it to its sinks.
    init(testBytes bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int, format: RawFormat,
         parameters: ISPParameters?, sequence: UInt32) {
        let mode = CameraSession.Mode(path: "test", card: "test frames", fourCC: 0, width: width, height: height,
                                      bytesPerLine: bytesPerLine, rawFormat: format, framesPerSecond: nil)
        self.init(bytes: bytes, mode: mode, sequence: sequence, timestampNanoseconds: 0,
                  exposure: ExposureSetting(exposure: 1.0 / 60, analogGain: 1), parameters: parameters, sensorZoom: 1)
    }
}
