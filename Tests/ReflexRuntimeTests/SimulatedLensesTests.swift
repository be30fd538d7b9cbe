import ReflexCore
import ReflexHardware
import ReflexISP
import Synchronization
import Testing
@testable import ReflexRuntime

/// A board of three lenses on the simulated sensor (`LensCameraPlace.simulated`): every lens
/// present, each a camera of its own seeing the scene at its magnification, switched by the
/// zoom as V4L2 lenses are, the one the zoom nears streaming in standby.
@Suite("Lenses on the simulated sensor")
struct SimulatedLensesTests {
    /// Keeps the magnification each frame was seen at (the lens's, times the zoom control's).
    final class ZoomSink: FrameSink {
        let name = "zoom-sink"
        var framesLost: Int { 0 }
        private let seen = Mutex<[Double]>([])
        func deliver(_ frame: SensorFrame) { seen.withLock { $0.append(frame.sensorZoom) } }
        var last: Double? { seen.withLock { $0.last } }
        func clear() { seen.withLock { $0 = [] } }
    }

    /// (In the simulated sensor's binned mode: three cameras' frames made in a debug build.)
    static let lenses: [BoardLens] = LensDescription.Role.allCases.map {
        var calibration = SensorCalibration.simulated
        (calibration.previewWidth, calibration.previewHeight) = (SimulatedCamera.binnedWidth, SimulatedCamera.binnedHeight)
        return BoardLens(description: LensDescription(role: $0, camera: "simulated"), calibration: calibration)
    }

    @Test func placeFindsEveryLensAndOpensEachAtItsMagnification() {
        let place = LensCameraPlace.simulated(.absoluteExposure, pace: .realTime, rendering: .everyFrame)
        let (present, missing) = place.find(SimulatedLensesTests.lenses)
        #expect(missing.isEmpty)
        #expect(present.map(\.lens.description.role) == LensDescription.Role.allCases)
        #expect(Set(present.map(\.camera)).count == 3, "each lens a camera of its own")
        let sources = present.map { place.source(for: $0.camera) }
        #expect(sources == [0.5, 1, 3].map { .simulated(.absoluteExposure, pace: .realTime, magnification: $0) })
        #expect(LensCameraPlace(.videoFile(path: "/a.mp4")) == nil, "a video file has no lenses")
    }

    @Test func theZoomSwitchesLensesAndTheNeighbourStreamsInStandby() {
        let log = TestLog()
        let pipeline = SensorPipeline(settings: CameraSettings(), calibration: .simulated,
                                      choice: FrameSinkTests.binned,
                                      lenses: SimulatedLensesTests.lenses, log: log.write)
        let sink = ZoomSink()
        pipeline.mailbox.attach(sink)
        #expect(pipeline.start())
        defer { pipeline.stop() }
        func lens() -> LensDescription.Role? { pipeline.status.latestSensorReport().activeLens }
        #expect(waitUntil { lens() == .wide && sink.last == 1 }, "the wide streams first")
        #expect(pipeline.status.latestSensorReport().lensesPresent == 0b111, "all three offered")
        #expect(log.text.contains("lenses: ultra-wide 0.5x on simulated-0.5, wide 1x on simulated-1.0, tele 3x on simulated-3.0"))

        // Straight to the tele: nothing streams it yet, the stream restarts on it.
        pipeline.mailbox.requestZoom(3)
        #expect(waitUntil { lens() == .tele && sink.last == 3 }, "frames seen at 3x, by the tele's camera")
        #expect(log.text.contains("lenses: wide → tele at zoom 3.00"))

        // Back near the switch-over: the wide is shown, the tele it nears waits in standby,
        // and the switch to it swaps the streams.
        pipeline.mailbox.requestZoom(2.8)
        #expect(waitUntil { lens() == .wide && log.text.contains("the tele streams beside the wide") })
        #expect(waitUntil { sink.last.map { abs($0 - 2.8) < 0.05 } ?? false }, "the wide's frames zoomed to 2.8")
        pipeline.mailbox.requestZoom(3.5)
        #expect(waitUntil { lens() == .tele && log.text.contains("its stream already running in standby") })
        #expect(waitUntil { sink.last.map { abs($0 - 3.5) < 0.05 } ?? false }, "the tele's frames zoomed to 3.5 (its zoom control at 117: 3.51)")

        pipeline.mailbox.requestZoom(0.5)
        #expect(waitUntil { lens() == .ultraWide && sink.last == 0.5 }, "the ultra-wide's frames")
        #expect(!log.text.contains("cannot stream beside"), "simulated cameras stream side by side")
    }
}
