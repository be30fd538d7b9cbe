import CTIFF
import ReflexISP

/// IFD0's tags that say how to make colour of the raw: the calibration's matrices with their
/// illuminants, the white balance used, the brightness and the noise. DNG rationals are set as
/// floats (libtiff's convention for these tags).
enum DNGColourTags {
    static func set(_ description: RawDescription, into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        try setCalibrations(try ordered(description.calibrations), into: file)
        if let neutral = description.asShotNeutral {
            guard [neutral.x, neutral.y, neutral.z].allSatisfy({ $0 > 0 && $0.isFinite }) else {
                throw PhotoEncodingError("AsShotNeutral must be three positive numbers")
            }
            try file.set(TIFFTAG_ASSHOTNEUTRAL, [Float(neutral.x), Float(neutral.y), Float(neutral.z)])
        }
        guard description.baselineExposure.isFinite else {
            throw PhotoEncodingError("BaselineExposure is not a number")
        }
        try file.set(TIFFTAG_BASELINEEXPOSURE, description.baselineExposure)
        if let noise = description.noiseProfile {
            guard noise.scale.isFinite, noise.offset.isFinite else {
                throw PhotoEncodingError("NoiseProfile is not a number")
            }
            try file.set(Int32(REFLEX_TIFFTAG_NOISEPROFILE), [noise.scale, noise.offset])
        }
    }

    /// The calibrations in DNG's order: the lower colour temperature first (Standard A as 1,
    /// D65 as 2). One alone goes in slot 1 with its own illuminant.
    static func ordered(_ calibrations: [ColourCalibrationSet]) throws(PhotoEncodingError) -> [ColourCalibrationSet] {
        guard calibrations.count < 2 || calibrations[0].illuminant != calibrations[1].illuminant else {
            throw PhotoEncodingError("two calibrations under the same illuminant")
        }
        return calibrations.sorted { $0.illuminant.rawValue < $1.illuminant.rawValue }
    }

    /// ColorMatrixN with CalibrationIlluminantN; ForwardMatrixN only when every calibration has
    /// one (a reader given ForwardMatrix1 alone would mix two methods).
    private static func setCalibrations(_ calibrations: [ColourCalibrationSet],
                                        into file: TIFFMemoryFile) throws(PhotoEncodingError) {
        let slots = [
            (matrix: TIFFTAG_COLORMATRIX1, illuminant: TIFFTAG_CALIBRATIONILLUMINANT1,
             forward: REFLEX_TIFFTAG_FORWARDMATRIX1),
            (matrix: TIFFTAG_COLORMATRIX2, illuminant: TIFFTAG_CALIBRATIONILLUMINANT2,
             forward: REFLEX_TIFFTAG_FORWARDMATRIX2),
        ]
        let forwardMatrices = calibrations.allSatisfy { $0.forwardMatrix != nil }
        for (calibration, slot) in zip(calibrations, slots) {
            try file.set(slot.matrix, try floats(calibration.colorMatrix))
            try file.set(slot.illuminant, calibration.illuminant.rawValue)
            if forwardMatrices, let forward = calibration.forwardMatrix {
                try file.set(Int32(slot.forward), try floats(forward))
            }
        }
    }

    private static func floats(_ matrix: Matrix3) throws(PhotoEncodingError) -> [Float] {
        guard matrix.m.allSatisfy(\.isFinite) else { throw PhotoEncodingError("a colour matrix is not a number") }
        return matrix.m.map { Float($0) }
    }
}
