import ReflexCore
import ReflexISP

/// One of the board's lenses: where it sits on the zoom and what finds its camera, with that
/// sensor's own calibration (its f-number, focal length, gain, colour matrix).
public struct BoardLens: Sendable {
    public let description: LensDescription
    public let calibration: SensorCalibration

    public init(description: LensDescription, calibration: SensorCalibration) {
        self.description = description
        self.calibration = calibration
    }
}
