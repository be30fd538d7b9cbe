import CAllocationCounter
import CV4L2
import ReflexISP
import ReflexTestSupport
import Testing
@testable import ReflexHardware

/// The benchmarks' sensor twin: a reel of frames drawn once and copied, so the simulator's
/// drawing is not counted as the camera's work; its frames still answer the controls.
@Suite("The simulated sensor's reel")
struct SimulatedFrameReelTests {
    private static let look = SimulatedFrameReel.Look(scene: SimulatedScene(), setting: ExposureSetting(exposure: 0.01, analogGain: 1),
                                                      layout: RawLayout(width: 4, height: 2, format: SimulatedScene.format))

    @Test func eachFrameIsDrawnOnceAndCopiedAfter() {
        let reel = SimulatedFrameReel(length: 3)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 64)
        defer { buffer.deallocate() }
        var drawings: [Int] = []
        for sequence in UInt32(0)..<8 {
            reel.fill(buffer, sequence: sequence, look: Self.look) { frame, slot in
                drawings.append(slot)
                frame.initializeMemory(as: UInt8.self, repeating: UInt8(10 + slot))
            }
            #expect(buffer.allSatisfy { $0 == UInt8(10 + Int(sequence) % 3) }, "frame \(sequence) is its slot's")
        }
        #expect(drawings == [0, 1, 2])
        #expect(reel.byteCount == 48)
    }

    @Test func aNewLookDrawsTheReelAgain() {
        let reel = SimulatedFrameReel(length: 2)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 64)
        defer { buffer.deallocate() }
        var drawings = 0
        func fill(_ sequence: UInt32, _ look: SimulatedFrameReel.Look) {
            reel.fill(buffer, sequence: sequence, look: look) { frame, _ in
                drawings += 1
                frame.initializeMemory(as: UInt8.self, repeating: UInt8(look.scene.zoom * 10))
            }
        }
        fill(0, Self.look)
        fill(1, Self.look)
        fill(2, Self.look)
        #expect(drawings == 2)
        var zoomed = Self.look
        zoomed.scene.zoom = 2
        fill(3, zoomed)
        #expect(drawings == 3)
        #expect(buffer.allSatisfy { $0 == 20 }, "the zoomed frame, not the one drawn before")
        fill(4, zoomed)
        fill(5, zoomed)
        #expect(drawings == 4)
        var noiseless = zoomed
        noiseless.scene.noise = false
        fill(6, noiseless)
        #expect(drawings == 5, "any change of the scene draws again")
    }

    /// The camera on a reel: frames a reel's length apart are the same bytes, neighbours are
    /// not (each slot has its own noise), a frame of a drawn reel costs a copy and no
    /// allocation, and an exposure set reaches the frames after two frames' delay, as the
    /// drawing twin's does, drawing the reel again.
    @Test func theCameraOnAReelStillAnswersItsExposure() throws {
        let stepper = SensorStepper()
        let camera = SimulatedCamera(style: .absoluteExposure, pace: .stepped(stepper), rendering: .reel(frames: 2))
        _ = try camera.setFormat(fourCC: 0, width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight)
        try camera.start(bufferCount: 4)
        defer { camera.stop() }
        // (Frames are compared by a digest: an expectation that fails prints it, not the frame.)
        func next() throws -> (bytes: Digest, mean: Double) {
            stepper.step()
            let frame = try #require(try camera.dequeue())
            let samples = frame.bytes.withMemoryRebound(to: UInt16.self) { Array($0) }
            return (Digest(frame.bytes), Double(samples.reduce(0) { $0 + Int($1) }) / Double(samples.count))
        }
        // (The lens reaches its focus through the controls' two-frame pipeline: a new look.)
        for _ in 0..<3 { _ = try next() }
        let first = try next(), second = try next(), third = try next()
        #expect(first.bytes != second.bytes, "each slot its own noise")
        #expect(first.bytes == third.bytes, "a reel of two: the third frame is the first again")
        let drawn = camera.framesDrawn
        stepper.step()
        let allocationsBefore = reflex_thread_allocations()
        let copied = try camera.dequeue()
        let allocations = reflex_thread_allocations() - allocationsBefore
        #expect(copied != nil && camera.framesDrawn == drawn, "a copy, not a drawing")
        #expect(allocations == 0, "a drawn reel's frame allocates nothing")
        try camera.setControl(REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE, to: 200)
        // (Two frames of delay: the third frame after the control is the first with it.)
        let stillOld = try next()
        #expect(stillOld.bytes == third.bytes, "the exposure is two frames away")
        _ = try next()
        let brighter = try next()
        let black = Double(SimulatedScene.blackLevel)
        #expect(brighter.mean - black > (first.mean - black) * 1.5, "\(brighter.mean) against \(first.mean)")
        #expect(camera.framesDrawn == drawn + 1, "the new exposure's first frame drawn, the old reel's copied till then")
    }

    /// A frame's bytes, told apart by FNV-1a.
    struct Digest: Equatable, CustomStringConvertible {
        let value: UInt64
        init(_ bytes: UnsafeRawBufferPointer) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            value = hash
        }
        var description: String { "frame " + String(value, radix: 16) }
    }
}
