import Foundation
import ReflexCore
import ReflexFormats
@testable import ReflexHardware
import ReflexISP
import ReflexSystem
import ReflexTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The file sensor: a video's pictures as the simulated sensor's Bayer frames. The clips are
/// made by ffmpeg, lossless (FFV1, 4:4:4), so their colours are known exactly.
@Suite("Video file sensor", .tags(.externalTool))
struct VideoFootageTests {
    /// A 64x48 clip at 10 fps of `seconds`: blue, its left third (21 columns) red.
    static func clip(in folder: TemporaryFolder, seconds: Double = 1) throws -> String {
        let path = folder.file("clip.mkv")
        let run = try ProgramRun(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=64x48:r=10:d=\(seconds)",
                                  "-vf", "drawbox=x=0:y=0:w=21:h=48:color=red:t=fill", "-pix_fmt", "yuv444p", "-c:v", "ffv1", path])
        guard run.status == 0 else { throw ClipFailure(run.errors) }
        return path
    }

    struct ClipFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = "ffmpeg could not make the clip: " + description }
    }

    /// One frame rendered without noise at an exposure that keeps red and blue below white.
    static func render(_ footage: VideoFootage, zoom: Double = 1) -> (samples: [UInt16], layout: RawLayout) {
        let layout = RawLayout(width: footage.width, height: footage.height, format: SimulatedScene.format)
        var samples = [UInt16](repeating: 0, count: layout.byteCount / 2)
        samples.withUnsafeMutableBytes { buffer in
            footage.render(into: buffer.baseAddress!, layout: layout, setting: ExposureSetting(exposure: 0.005, analogGain: 1),
                           zoom: zoom, frameNumber: 1, noise: false)
        }
        return (samples, layout)
    }

    @Test func aPictureBecomesRGGBSamplesOfItsColours() throws {
        let folder = TemporaryFolder()
        let footage = try VideoFootage(path: try Self.clip(in: folder))
        #expect(footage.width == 64 && footage.height == 48 && footage.framesPerSecond == 10)
        try footage.advance(by: 1)
        let (samples, layout) = Self.render(footage)
        let stride = layout.bytesPerLine / 2
        let black = UInt16(SimulatedScene.blackLevel)
        // Red pixels sit at even rows and columns, blue at odd ones.
        let redOnTheLeft = samples[2 * stride + 4], blueOnTheLeft = samples[3 * stride + 5]
        let redOnTheRight = samples[2 * stride + 50], blueOnTheRight = samples[3 * stride + 51]
        #expect(redOnTheLeft > black + 500 && blueOnTheLeft < black + 20, "red: \(redOnTheLeft), blue: \(blueOnTheLeft)")
        #expect(blueOnTheRight > black + 500 && redOnTheRight < black + 20, "red: \(redOnTheRight), blue: \(blueOnTheRight)")
    }

    @Test func theZoomMagnifiesTheMiddle() throws {
        let folder = TemporaryFolder()
        let footage = try VideoFootage(path: try Self.clip(in: folder))
        try footage.advance(by: 1)
        let black = UInt16(SimulatedScene.blackLevel)
        // Red reaches column 20: at 2x the middle half (columns 16…47) fills the frame, so red
        // reaches about column 10.
        let whole = Self.render(footage).samples, zoomed = Self.render(footage, zoom: 2).samples
        #expect(whole[16] > black + 500 && zoomed[16] < black + 20)
        #expect(zoomed[4] > black + 500)
    }

    @Test func theFileStartsAgainAtItsEnd() throws {
        let folder = TemporaryFolder()
        let footage = try VideoFootage(path: try Self.clip(in: folder, seconds: 1))
        try footage.advance(by: 25)
        #expect(footage.picturesRead == 25)
        #expect(footage.loops == 2, "ten pictures a pass")
    }

    /// A late sensor thread passes over the pictures it missed (decoded, not converted) and
    /// shows the newest: a clip red for its first five pictures, then blue.
    @Test func aLateSensorShowsTheNewestPicture() throws {
        let folder = TemporaryFolder()
        let path = folder.file("turns.mkv")
        let run = try ProgramRun(["ffmpeg", "-v", "error", "-y", "-filter_complex",
                                  "color=c=red:s=64x48:r=10:d=0.5[a];color=c=blue:s=64x48:r=10:d=0.5[b];[a][b]concat=n=2:v=1",
                                  "-pix_fmt", "yuv444p", "-c:v", "ffv1", path])
        guard run.status == 0 else { throw ClipFailure(run.errors) }
        let footage = try VideoFootage(path: path)
        let black = UInt16(SimulatedScene.blackLevel)
        try footage.advance(by: 1)
        let first = Self.render(footage)
        let stride = first.layout.bytesPerLine / 2
        #expect(first.samples[2 * stride + 4] > black + 500, "the first picture is red")
        try footage.advance(by: 6)
        let seventh = Self.render(footage).samples
        #expect(footage.picturesRead == 7)
        #expect(seventh[2 * stride + 4] < black + 20 && seventh[3 * stride + 5] > black + 500, "the seventh is blue")
    }

    /// A sensor thread that read the timer late by many frames (a machine slower than the
    /// file) moves the footage on by a few pictures only, so each frame costs a bounded
    /// decode and the stream cannot fall ever further behind: the footage plays slower, and
    /// the frame with sequence N still shows picture N − 1.
    @Test func aVeryLateReadMovesTheFootageOnByAFewPicturesOnly() throws {
        let folder = TemporaryFolder()
        let footage = try VideoFootage(path: try Self.clip(in: folder, seconds: 3))
        let stepper = SensorStepper()
        let camera = SimulatedCamera(footage: footage, pace: .stepped(stepper))
        try camera.start(bufferCount: 2)
        defer { camera.stop() }
        stepper.step(frames: 1)
        let first = try #require(try camera.dequeue())
        #expect(first.sequence == 1 && footage.picturesRead == 1)
        try camera.requeue(first)
        // Twenty frames due at once: three are made.
        stepper.step(frames: 20)
        let late = try #require(try camera.dequeue())
        #expect(late.sequence == 1 + UInt32(FootagePacing.catchUp), "sequence \(late.sequence)")
        #expect(footage.picturesRead == Int(late.sequence), "pictures read: \(footage.picturesRead)")
        try camera.requeue(late)
        // A read on time moves on by its frame.
        stepper.step(frames: 1)
        let next = try #require(try camera.dequeue())
        #expect(next.sequence == late.sequence + 1 && footage.picturesRead == Int(next.sequence))
        // The synthetic scene, which costs the same whatever the frame, takes every frame due.
        #expect(FootagePacing.framesMade(expirations: 20, playingFootage: false) == 20)
    }

    /// Real-time footage drops the thread reading it below the analysis (nice 10 against its
    /// 5): the twin stands for hardware, which takes no CPU from the camera's own threads.
    @Test func theThreadReadingFootageYieldsToTheCamerasOwn() throws {
        let folder = TemporaryFolder()
        let path = try Self.clip(in: folder)
        let seen = Mutex<(sequence: UInt32, nice: Int32)?>(nil)
        let thread = WorkerThread(name: "test-sensor")
        #expect(thread.start {
            do {
                let camera = SimulatedCamera(footage: try VideoFootage(path: path))
                try camera.start(bufferCount: 2)
                var pending = pollfd(fd: camera.descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&pending, 1, 5000)
                let frame = try camera.dequeue()
                errno = 0
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                seen.withLock { $0 = (frame?.sequence ?? 0, nice) }
                camera.stop()
            } catch {
                Issue.record("the footage did not stream: \(error)")
            }
        })
        thread.stop()
        let result = try #require(seen.withLock { $0 })
        #expect(result.sequence >= 1, "a frame came")
        #expect(result.nice == FootagePacing.nice && FootagePacing.nice > 5, "nice \(result.nice)")
    }

    @Test func theSensorStreamsTheVideosSizeAndRate() throws {
        let folder = TemporaryFolder()
        let path = try Self.clip(in: folder)
        let session = CameraSession(choice: CameraChoice(source: .videoFile(path: path)), calibration: .simulated, log: { _ in })
        let found = try #require(session.findCamera())
        #expect(found.card.contains("clip.mkv"))
        #expect(found.formats[0].sizes.map { "\($0.width)x\($0.height)" } == ["64x48"])
        #expect(found.formats[0].sizes[0].framesPerSecond == [10])
    }

    @Test func aMissingOrBrokenFileIsAClearError() throws {
        let folder = TemporaryFolder()
        #expect { _ = try VideoFootage(path: folder.file("missing.mp4")) } throws: { "\($0)".contains("missing.mp4") }
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: folder.file("broken.mp4")))
        #expect { _ = try VideoFootage(path: folder.file("broken.mp4")) } throws: { "\($0)".contains("broken.mp4") }
        let session = CameraSession(choice: CameraChoice(source: .videoFile(path: folder.file("missing.mp4"))), calibration: .simulated, log: { _ in })
        #expect(session.findCamera() == nil, "no such camera: the camera says so as for an unplugged one")
    }
}
