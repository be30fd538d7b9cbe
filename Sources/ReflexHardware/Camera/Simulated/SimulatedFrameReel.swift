import ReflexISP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The simulated sensor's frames drawn once and handed over again
/// (`SimulatedCamera.Rendering.reel`). On a board the sensor's frames arrive by DMA and cost
/// the CPUs nothing, while drawing a 12 MP scene costs the simulator more than the camera's
/// own work on the frame: a benchmark on the drawing twin measures the simulator. The reel
/// keeps `length` frames of the scene as it looks now (its exposure, zoom, focus, light, noise);
/// each frame of the stream is a copy of one of them into the stream's buffer, as a V4L2
/// buffer is filled for the camera, drawn the first time it is needed. A change of the
/// controls makes a new reel: the frames after it are drawn again, as the drawing twin's are.
final class SimulatedFrameReel {
    /// What the reel's frames show: a frame drawn for another look is not shown.
    struct Look: Equatable {
        var scene: SimulatedScene
        var setting: ExposureSetting
        var layout: RawLayout
    }

    let length: Int
    private var frames: [UnsafeMutableRawBufferPointer] = []
    private var drawn: [Bool]
    private var look: Look?

    init(length: Int) {
        precondition(length > 0, "a reel holds a frame at least")
        self.length = length
        drawn = [Bool](repeating: false, count: length)
    }

    deinit { release() }

    /// The bytes the reel holds (its frames, once a stream has drawn them).
    var byteCount: Int { frames.reduce(0) { $0 + $1.count } }

    /// Fills `buffer` with the reel's frame for `sequence` as it looks now, first drawing it
    /// with `draw(frame, slot)` if the reel has none for `look` (slot: the frame's place in the
    /// reel, which a drawing gives its time and noise).
    func fill(_ buffer: UnsafeMutableRawBufferPointer, sequence: UInt32, look: Look,
              draw: (UnsafeMutableRawBufferPointer, _ slot: Int) -> Void) {
        if look != self.look { begin(look) }
        let slot = Int(sequence % UInt32(length))
        let frame = frames[slot]
        if !drawn[slot] {
            draw(frame, slot)
            drawn[slot] = true
        }
        memcpy(buffer.baseAddress!, frame.baseAddress!, min(buffer.count, frame.count))
    }

    /// Forgets what was drawn; new memory only when the frame's size changed.
    private func begin(_ look: Look) {
        if look.layout.byteCount != self.look?.layout.byteCount {
            release()
            frames = (0..<length).map { _ in .allocate(byteCount: look.layout.byteCount, alignment: 64) }
            SensorTwinCost.reelBytes.add(byteCount, ordering: .relaxed)
        }
        for slot in drawn.indices { drawn[slot] = false }
        self.look = look
    }

    private func release() {
        SensorTwinCost.reelBytes.subtract(byteCount, ordering: .relaxed)
        for frame in frames { frame.deallocate() }
        frames.removeAll()
        look = nil
    }
}
