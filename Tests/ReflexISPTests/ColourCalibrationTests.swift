import Testing
@testable import ReflexISP

@Suite("Colour temperature and the sensor's colour calibration")
struct ColourCalibrationTests {
    let srgb = ColourCalibration()

    @Test func daylightNeedsNoCorrectionOnAnSRGBSensor() {
        let gains = srgb.gains(kelvin: 6504)  // D65, sRGB's white
        #expect(abs(gains.x - 1) < 0.03 && abs(gains.z - 1) < 0.03, "\(gains)")
        #expect(abs(srgb.previewMatrix.m[0] - 1) < 1e-6 && abs(srgb.previewMatrix.m[1]) < 1e-6)
    }

    @Test func warmLightIsCorrectedTowardsBlueAndCoolLightTowardsRed() {
        let tungsten = srgb.gains(kelvin: 3200), shade = srgb.gains(kelvin: 7500)
        #expect(tungsten.x < 1 && tungsten.z > 1.5, "\(tungsten)")
        #expect(shade.x > 1 && shade.z < 1, "\(shade)")
    }

    @Test func extremeTemperaturesGiveFinitePositiveGains() {
        for kelvin in [1000, 1667, 1700, 2000, 12000, 25000, 40000] {
            let gains = srgb.gains(kelvin: kelvin)
            #expect(gains.x > 0 && gains.z > 0 && gains.x.isFinite && gains.z.isFinite, "\(kelvin) K: \(gains)")
        }
        #expect(srgb.kelvin(forGains: SIMD3(-1, 1, 0)) == 5500, "nonsense gains do not crash")
    }

    @Test func gainsFindTheirTemperatureAgain() {
        for kelvin in [2500, 3200, 4000, 5500, 7500, 10000] {
            #expect(abs(srgb.kelvin(forGains: srgb.gains(kelvin: kelvin)) - kelvin) <= 100, "\(kelvin) K")
        }
    }

    @Test func aBoardGivesItsColourMatrix() throws {
        let text = "color-matrix = 0.6722 -0.0635 -0.0963 -0.4287 1.2460 0.2028 -0.0908 0.2162 0.5668\n"
        let calibration = try SensorCalibration.parse(text).get()
        #expect(calibration.colorMatrix?.m[4] == 1.2460)
        let matrix = calibration.color.previewMatrix
        for row in 0..<3 { #expect(abs(matrix.m[row * 3] + matrix.m[row * 3 + 1] + matrix.m[row * 3 + 2] - 1) < 1e-9) }
        #expect(calibration.color.gains(kelvin: 5500) != srgb.gains(kelvin: 5500))
        for bad in ["color-matrix = 1 0 0 0 1 0 0 0", "color-matrix = 1 1 1 1 1 1 1 1 1", "color-matrix = a b c d e f g h i"] {
            #expect(throws: SensorCalibration.Problem.self, "\(bad)") { try SensorCalibration.parse(bad).get() }
        }
    }
}
