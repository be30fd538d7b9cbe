import ReflexHardware
import Testing

/// A lens file's `camera` finds its node whatever order the nodes were numbered in.
@Suite("Camera matcher")
struct CameraMatcherTests {
    let candidates = [
        CameraMatcher.Candidate(path: "/dev/video0", names: ["vivid", "platform:vivid-000"], hops: 1),
        CameraMatcher.Candidate(path: "/dev/video8", names: ["vivid", "platform:vivid-001"], hops: 1),
        CameraMatcher.Candidate(path: "/dev/video12", names: ["Sensor A", "VIMC MDEV", "platform:vimc"], hops: 3),
        CameraMatcher.Candidate(path: "/dev/video10", names: ["Sensor A", "VIMC MDEV", "platform:vimc"], hops: 1),
    ]

    @Test func byPathBusCardOrSensor() {
        #expect(CameraMatcher.match("/dev/video8", in: candidates) == "/dev/video8")
        #expect(CameraMatcher.match("platform:vivid-001", in: candidates) == "/dev/video8")
        #expect(CameraMatcher.match("Sensor A", in: candidates) == "/dev/video10", "the sensor's raw node, not the scaled one")
    }

    @Test func aCameraThatIsNotThereIsNone() {
        #expect(CameraMatcher.match("/dev/video3", in: candidates) == nil)
        #expect(CameraMatcher.match("Sensor B", in: candidates) == nil)
    }
}
