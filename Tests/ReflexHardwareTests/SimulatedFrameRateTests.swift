import Testing
@testable import ReflexHardware

/// The simulated sensor's frame rates, as a UVC camera offers them.
@Suite("The simulated sensor's rates")
struct SimulatedFrameRateTests {
    /// As a UVC camera's discrete frame intervals: the mode's rate divided by a whole number,
    /// the fastest not above the rate asked; a new format starts at its mode's rate again.
    @Test func aSlowerRateIsTheModesDividedByAWholeNumber() throws {
        // (Rates from frame times in whole nanoseconds: 1/30 s is 33,333,333 ns.)
        func rate(_ camera: SimulatedCamera, asking framesPerSecond: Int) throws -> Double {
            let rate = try #require(try camera.setFrameRate(framesPerSecond))
            return (rate * 1000).rounded() / 1000
        }
        let camera = SimulatedCamera()
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
        #expect(try rate(camera, asking: 5) == 5)
        #expect(abs(camera.frameSeconds - 0.2) < 1e-9)
        #expect(try rate(camera, asking: 12) == 10)
        #expect(try rate(camera, asking: 60) == 30)
        _ = try camera.setFrameRate(5)
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.largeWidth, height: SimulatedCamera.largeHeight)
        #expect(abs(camera.frameSeconds - 0.1) < 1e-9, "the 12 MP mode at its own 10 fps")
        #expect(try rate(camera, asking: 5) == 5)
        let csi = SimulatedCamera(style: .exposureInLines)
        #expect(try rate(csi, asking: 5) == 30, "a CSI sensor's rate is its VBLANK's")
    }
}
