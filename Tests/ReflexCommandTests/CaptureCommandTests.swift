import Foundation
import Testing

/// `reflex capture`, as a script runs it: alone, and asking the running camera.
@Suite("reflex capture", .serialized)
struct CaptureCommandTests {
    static func photoLines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func aloneItStreamsTheCameraAndWritesAPairAPhoto() throws {
        let state = StateFolder()
        let card = state.path + "/card"
        let run = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", card,
                                 "--format", "raw+jpeg", "--burst", "2", "--iso", "400", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let photos = Self.photoLines(run.output)
        #expect(photos.count == 2, "\(run.output)")
        #expect(photos.first?["number"] as? String == "100REFLX/RFLX0001")
        #expect(photos.last?["number"] as? String == "100REFLX/RFLX0002")
        #expect(photos.first?["iso"] as? Int == 400, "the manual ISO: \(run.output)")
        for photo in photos {
            let files = photo["files"] as? [String] ?? []
            #expect(files.map { ($0 as NSString).pathExtension } == ["DNG", "JPG"])
            #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        }
        // Numbers go on from the counter: the next run starts at 3.
        let again = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", card, "--format", "jpeg"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output.trimmingCharacters(in: .whitespacesAndNewlines) == card + "/DCIM/100REFLX/RFLX0003.JPG")
    }

    @Test func aBadValueIsAClearError() throws {
        let state = StateFolder()
        let run = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", state.path, "--iso", "333"])
        #expect(run.status != 0)
        #expect(run.errors.contains("not an ISO stop"), "\(run.errors)")
    }

    @Test func whileTheCameraRunsItAsksTheCameraForTheShot() throws {
        let camera = try ScreenCommandTests.RunningCamera(["--sensor", "sim"])
        defer { _ = camera.stop() }
        #expect(camera.waitForFrame { _ in true } != nil, "the camera shows a frame")
        let socket = camera.state.path + "/capture.sock"
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let run = try ReflexRun(["capture", "--state-dir", camera.state.path, "--format", "raw", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let photo = try #require(Self.photoLines(run.output).first, "\(run.output)")
        let files = photo["files"] as? [String] ?? []
        // The camera's card (here the state folder), numbered by the camera.
        #expect(files == [camera.state.path + "/DCIM/100REFLX/RFLX0001.DNG"], "\(files)")
        #expect(run.errors.contains("asking the running camera"), "\(run.errors)")
        // Exposure options would change the photographer's settings: refused, with the reason.
        let refused = try ReflexRun(["capture", "--state-dir", camera.state.path, "--iso", "800"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("the camera is running and shoots with its own settings"), "\(refused.errors)")
        let log = camera.stop()
        #expect(log.contains("photo 1: frame"), "\(log)")
    }
}
