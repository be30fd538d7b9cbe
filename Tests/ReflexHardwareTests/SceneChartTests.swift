import ReflexHardware
import ReflexISP
import Testing

/// The simulated sensor's handheld shake and step wedge (Enhanced RAW's tests stand on them).
@Suite struct SceneChartTests {
    static let layout = RawLayout(width: 256, height: 192, format: SimulatedScene.format)
    static let setting = ExposureSetting(exposure: 0.01, analogGain: 1)

    static func render(_ scene: SimulatedScene, frame: UInt64) -> [UInt16] {
        var samples = [UInt16](repeating: 0, count: layout.width * layout.height)
        samples.withUnsafeMutableBytes {
            scene.render(into: $0.baseAddress!, layout: layout, time: 0.5, setting: setting, frameNumber: frame)
        }
        return samples
    }

    @Test func aShakeIsTheSameEachRunAndDifferentEachFrame() {
        let shake = CameraShake(shift: 6, rotation: 0.1)
        #expect(shake.pose(frame: 3) == shake.pose(frame: 3))
        #expect(shake.pose(frame: 3) != shake.pose(frame: 4))
        for frame in UInt64(0)..<200 {
            let pose = shake.pose(frame: frame)
            #expect(abs(pose.dx) <= 6 && abs(pose.dy) <= 6 && abs(pose.sine) <= 0.1 * .pi / 180)
        }
    }

    @Test func aShakenFrameShowsTheSceneMovedAndAStillHandChangesNothing() {
        var scene = SimulatedScene(noise: false)
        let tripod = Self.render(scene, frame: 5)
        scene.shake = CameraShake(shift: 0, rotation: 0)
        #expect(Self.render(scene, frame: 5) == tripod)
        scene.shake = CameraShake(shift: 8, rotation: 0)
        let shaken = Self.render(scene, frame: 5)
        #expect(shaken != tripod)
        // The shaken frame's pixel (x, y) is the tripod's (x + dx, y + dy), to the 2×2 cell (and
        // the shading's change across the pixel the cell rounds off).
        let pose = scene.shake!.pose(frame: 5)
        let (dx, dy) = (Int((pose.dx / 2).rounded()) * 2, Int((pose.dy / 2).rounded()) * 2)
        var same = 0, compared = 0
        for y in stride(from: 40, to: 150, by: 2) {
            for x in stride(from: 40, to: 210, by: 2) {
                compared += 1
                let (seen, there) = (Double(shaken[y * 256 + x]), Double(tripod[(y + dy) * 256 + x + dx]))
                if abs(seen - there) <= 0.03 * there { same += 1 }
            }
        }
        #expect(same * 10 >= compared * 8, "\(same) of \(compared) cells where the pose put them")
    }

    @Test func theWedgeStepsDownByItsStopsAndIsReadPatchByPatch() throws {
        let wedge = StepWedge()
        #expect(abs(wedge.radiance(ofStep: 3) * 2 - wedge.radiance(ofStep: 0)) < 1e-9)  // three thirds: a stop
        var scene = SimulatedScene(noise: false)
        scene.stepWedge = wedge
        let clean = Self.render(scene, frame: 1)
        let readings = wedge.readings(clean, width: 256, height: 192, blackLevel: SimulatedScene.blackLevel,
                                      whiteLevel: SimulatedScene.whiteLevel)
        try #require(readings.count == wedge.steps)
        // The brightest patches clip; below them each is darker, without noise.
        #expect(readings[0].clipped && !readings[12].clipped)
        #expect(readings[12].noise == 0 && readings[12].signal > readings[15].signal * 1.9)
        scene.noise = true
        let noisy = wedge.readings(Self.render(scene, frame: 1), width: 256, height: 192,
                                   blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel)
        // The darkest patches drown in the read noise: the usable range ends above them.
        try #require(noisy.count == wedge.steps)
        #expect(!noisy[wedge.steps - 1].usable && noisy[12].usable)
        #expect(wedge.usableStops(noisy) > 8 && wedge.usableStops(noisy) < 12)
    }
}
