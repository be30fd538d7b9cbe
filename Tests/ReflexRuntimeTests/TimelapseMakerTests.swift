import Foundation
import ReflexCore
import ReflexFormats
import ReflexStorage
import ReflexSystem
import ReflexTestSupport
import Testing
@testable import ReflexRuntime

/// An interval run's timelapse, made on its own thread once the run has ended: the run's
/// JPEGs as the photo thread saved them, one a frame, into an MP4 on the card, read back by
/// libavformat; its progress and outcome on the status board.
@Suite("Timelapse maker", .serialized)
struct TimelapseMakerTests {
    final class Rig {
        let card = TemporaryFolder()
        let state = TemporaryFolder()
        let numbering: CardNumbering
        let runPhotos = IntervalRunPhotos()
        let status = StatusBoard()
        let log = TestLog()
        let maker: TimelapseMaker
        private var seen = CameraStatus()

        init() {
            numbering = CardNumbering(card: PhotoCard(root: card.path), counter: PhotoCounter(folder: state.path))
            maker = TimelapseMaker(runPhotos: runPhotos, numbering: numbering, status: status, encoders: [.libx264],
                                   log: log.write)
            #expect(maker.start())
        }

        /// A photo of run `run` saved as the photo thread saves one: numbered, on the card.
        func savePhoto(run: Int, index: Int, jpeg: Bool = true) throws {
            let number = try numbering.next()
            guard jpeg else { return runPhotos.saved(run: run, jpeg: nil) }
            try AtomicFile.createFolder(numbering.card.folder(for: number))
            let path = numbering.card.path(for: number, extension: "JPG")
            try AtomicFile.write(try TimelapseMakerTests.jpeg(index: index), to: path)
            runPhotos.saved(run: run, jpeg: path)
        }

        var report: TimelapseReport {
            status.update(&seen)
            return seen.timelapse
        }
    }

    /// A 640x360 JPEG whose brightness follows `index` (the frames differ).
    static func jpeg(index: Int) throws -> [UInt8] {
        let (width, height) = (640, 360)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                (rgb[i], rgb[i + 1], rgb[i + 2]) = (UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8(truncatingIfNeeded: index * 20))
            }
        }
        let photo = PhotoDescription(make: "Reflex", model: "Test", software: "Reflex test", exposureSeconds: 0.01, iso: 100,
                                     captured: PhotoTime(year: 2026, month: 11, day: 27, hour: 12, minute: 0, second: index))
        return try rgb.withUnsafeBufferPointer {
            try JPEGEncoder.encode(RGBImage(pixels: $0.baseAddress!, width: width, height: height), photo: photo)
        }
    }

    @Test(.tags(.externalTool)) func anEndedRunsJPEGsBecomeAMovieOnTheCard() throws {
        let rig = Rig()
        defer { rig.maker.stop() }
        for index in 0..<12 { try rig.savePhoto(run: 3, index: index) }
        #expect(rig.maker.make(TimelapseMaker.Job(run: 3, photos: 12, framesPerSecond: 24)))
        #expect(waitUntil { rig.report.made == 1 }, "made: \(rig.log.text)")
        let report = rig.report
        #expect(report.lastName == "RFLX0013.MP4" && report.lastFrames == 12 && abs(report.lastSeconds - 0.5) < 1e-9)
        #expect(!report.making && report.refused == 0)
        let movie = rig.card.path + "/DCIM/100REFLX/RFLX0013.MP4"
        let reader = try MovieReader(path: movie)
        #expect(reader.streams.map(\.codec) == ["h264"] && reader.streams.first?.width == 1920
                && reader.streams.first?.height == 1080)
        let times = try reader.packetTimes(of: "video")
        #expect(times.count == 12 && abs((times.last ?? 0) - 11.0 / 24) < 0.001, "one frame a photo at 24 fps: \(times)")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: rig.card.path + "/DCIM/100REFLX").filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "nothing half-made left: \(hidden)")
    }

    /// The run's last photos may still be on their way when it ends: they are waited for.
    @Test func theRunsLastPhotosAreWaitedFor() throws {
        let rig = Rig()
        defer { rig.maker.stop() }
        for index in 0..<2 { try rig.savePhoto(run: 1, index: index) }
        #expect(rig.maker.make(TimelapseMaker.Job(run: 1, photos: 4, framesPerSecond: 30)))
        usleep(300_000)
        #expect(rig.report.made == 0)
        for index in 2..<4 { try rig.savePhoto(run: 1, index: index) }
        #expect(waitUntil { rig.report.made == 1 }, "\(rig.log.text)")
        #expect(rig.report.lastFrames == 4)
    }

    /// A run in RAW alone has no JPEGs to make a movie of: it says so.
    @Test func aRunWithoutJPEGsSaysSo() throws {
        let rig = Rig()
        defer { rig.maker.stop() }
        for index in 0..<3 { try rig.savePhoto(run: 2, index: index, jpeg: false) }
        #expect(rig.maker.make(TimelapseMaker.Job(run: 2, photos: 3, framesPerSecond: 25)))
        #expect(waitUntil { rig.report.refused == 1 })
        #expect(rig.report.lastRefusal == "No timelapse: the run saved no JPEGs" && rig.report.made == 0)
    }

    /// The photo thread keeps the run's JPEGs as it saves them: what the timelapse is made of.
    @Test func anIntervalRunsPhotosAreKeptForItsTimelapse() throws {
        // (Memory for every photo at once: no press waits for the photo thread, which a busy
        // machine may starve for a while.)
        let rig = CaptureTests.Rig(format: .jpeg, spares: 8, stepped: true)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 8))
        for _ in 0..<3 {
            #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame, intervalRun: 4))
            #expect(rig.step(frames: 2))
        }
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame))
        #expect(rig.step(frames: 2))
        #expect(waitUntil { rig.photoReport().saved == 4 }, "\(rig.log.text.suffix(1500))")
        let run = rig.photos.intervalRunPhotos.photos(ofRun: 4)
        #expect(run.saved == 3 && run.jpegs.count == 3 && run.jpegs.allSatisfy { $0.hasSuffix(".JPG") },
                "the run's three, not the photo taken after it: \(run)")
    }
}
