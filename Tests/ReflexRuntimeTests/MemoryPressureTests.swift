import ReflexTestSupport
import Foundation
import ReflexCore
import ReflexHardware
import ReflexStorage
import ReflexSystem
import Synchronization
import Testing
@testable import ReflexRuntime

/// Memory pressure (docs/camera.md, Photos): the kernel's PSI triggers are set where it has
/// them; under extreme pressure the presses still waiting for memory and the photos not yet
/// developed are cancelled and counted, never an OOM kill.
@Suite("Memory pressure", .serialized)
struct MemoryPressureTests {
    /// A photo pipeline saving into `state`, not started: what the shutter's side hands photos to.
    static func photos(in state: TemporaryFolder, log: TestLog) -> PhotoPipeline {
        PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: state.path), counter: PhotoCounter(folder: state.path)),
                      describer: PhotoDescriber(calibration: .simulated, software: "Reflex test"),
                      status: StatusBoard(), giveBack: { _ in }, log: log.write)
    }

    static func press(_ number: Int) -> ControlMailbox.CaptureRequest {
        ControlMailbox.CaptureRequest(number: number, ticket: nil, pressedAt: monotonicSeconds(), framing: Framing(zoom: 1), format: nil)
    }

    /// On a kernel with PSI (this machine's, as root), the two triggers are taken; where the
    /// file is not there, the camera says it runs on its budget alone.
    @Test func theTriggersAreSetWhereTheKernelHasPSI() throws {
        let log = TestLog()
        let missing = MemoryPressureMonitor(path: "/proc/pressure/no-such-file", log: log.write)
        #expect(!missing.start())
        #expect(log.text.contains("pressure not watched") && log.text.contains("the kernel has no PSI"), "\(log.text)")
        try #require(FileManager.default.fileExists(atPath: "/proc/pressure/memory"), "this kernel has no PSI")
        try #require(getuid() == 0, "before Linux 6.5 a trigger needs CAP_SYS_RESOURCE (CI runs as root)")
        let watched = TestLog()
        let monitor = MemoryPressureMonitor(log: watched.write)
        defer { monitor.stop() }
        #expect(monitor.start(), "\(watched.text)")
        #expect(watched.text.contains("memory: watching pressure (/proc/pressure/memory: moderate at some 200000 2000000"))
        #expect(monitor.level == .normal)
        monitor.fired(.severe)
        #expect(monitor.level == .severe && watched.text.contains("memory: pressure severe (was normal)"))
    }

    /// The sealed service may set no trigger (some kernels before 6.5 want CAP_SYS_RESOURCE):
    /// it reads the file's totals each second instead. A stand-in file whose "some" total
    /// climbs by a second's stall after the reading at start raises the level to severe.
    @Test func withoutTriggersTheFilesTotalsAreReadEachSecond() throws {
        let folder = TemporaryFolder()
        let file = folder.path + "/memory"
        func write(stalled: Int) {
            let text = "some avg10=0.00 avg60=0.00 avg300=0.00 total=\(stalled)\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
            _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        }
        write(stalled: 5_000)
        let log = TestLog()
        let monitor = MemoryPressureMonitor(path: file, sampling: true, log: log.write)
        defer { monitor.stop() }
        #expect(monitor.start() && monitor.isSampling, "\(log.text)")
        #expect(log.text.contains("memory: watching pressure (\(file): its totals each second against moderate at some 200000 2000000"),
                "\(log.text)")
        #expect(monitor.level == .normal)
        // Measured from the reading taken at start.
        write(stalled: 5_000 + 1_000_000)
        #expect(waitUntil { monitor.level == .severe }, "\(log.text)")
        // (The level is published before its line is logged: the line is waited for.)
        #expect(waitUntil { log.text.contains("memory: pressure severe (was normal)") }, "\(log.text)")
    }

    /// The sensor thread's side: presses waiting for a frame's memory are cancelled when the
    /// pressure is extreme, not under moderate pressure; the ring shrinks at each level.
    @Test func extremePressureCancelsThePressesWaitingForMemory() throws {
        let log = TestLog()
        let state = TemporaryFolder()
        let photos = Self.photos(in: state, log: log)
        let ring = ZeroLagRing(ringFrames: 6, spares: 4, frameBytes: 0)
        let queue = ShutterQueue(ring: ring, photos: photos, log: log.write)
        for number in 1...3 { queue.add(Self.press(number)) }
        queue.adapt(to: .moderate)
        #expect(queue.waiting == 3 && queue.cancelled == 0)
        #expect(ring.activeRingFrames == 3 && ring.photosOutAllowed == 4)
        queue.adapt(to: .severe)
        #expect(queue.waiting == 0 && queue.cancelled == 3)
        #expect(ring.activeRingFrames == 2 && ring.photosOutAllowed == 1)
        #expect(log.text.contains("shutter: 3 press(es) cancelled, memory low: 1…3"), "\(log.text)")
        queue.adapt(to: .normal)
        #expect(ring.activeRingFrames == 6 && ring.photosOutAllowed == 4)
    }

    /// A program that asked for the cancelled presses (`reflex capture`) hears of each at
    /// once, not after its patience: each ticket has its result, saying why.
    @Test func theCancelledPressesOfAnotherProgramHaveTheirResultsAtOnce() throws {
        let log = TestLog()
        let state = TemporaryFolder()
        let photos = Self.photos(in: state, log: log)
        let queue = ShutterQueue(ring: ZeroLagRing(ringFrames: 6, spares: 4, frameBytes: 0), photos: photos, log: log.write)
        let bracket = try #require(BracketPlan(frames: 3, stepThirds: 3))
        queue.add(ControlMailbox.CaptureRequest(number: 1, ticket: 11, pressedAt: monotonicSeconds(), framing: Framing(zoom: 1), format: nil))
        queue.add(ControlMailbox.CaptureRequest(number: 2, ticket: 12, pressedAt: monotonicSeconds(), framing: Framing(zoom: 1),
                                                format: nil, bracket: bracket))
        queue.adapt(to: .severe)
        let single = try #require(photos.result(forTicket: 11))
        #expect(single.error == "photo 1 cancelled: memory low" && single.untakenFrames == 1)
        #expect(CaptureService.reply(single) == "error\tphoto 1 cancelled: memory low")
        // The bracket's three frames are accounted for by the one result: no wait at all.
        let results = photos.waitForResults(ticket: 12, count: 3, seconds: 0)
        #expect(results.count == 1 && results[0].untakenFrames == 3 && results[0].error == "photo 2 cancelled: memory low",
                "\(results)")
    }

    /// The photo thread's side: photos waiting to be developed are cancelled under extreme
    /// pressure, their frames given back at once, counted for the screen, nothing written.
    @Test func extremePressureCancelsThePhotosNotYetDeveloped() throws {
        let card = TemporaryFolder(), state = TemporaryFolder()
        let log = TestLog()
        let status = StatusBoard()
        let givenBack = Atomic<Int>(0)
        let photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: card.path), counter: PhotoCounter(folder: state.path)),
                                   describer: PhotoDescriber(calibration: .simulated, software: "Reflex test"),
                                   status: status, giveBack: { _ in givenBack.add(1, ordering: .relaxed) }, log: log.write)
        let pressure = MemoryPressureMonitor(log: log.write)
        pressure.fired(.severe)
        photos.memoryPressure = pressure
        for number in 1...3 { #expect(photos.inbox.send(SaveQueueTests.Rig.capture(number, format: .raw))) }
        photos.start()
        defer { photos.stop() }
        var report = CameraStatus()
        #expect(waitUntil { status.update(&report); return report.photo.cancelled == 3 }, "\(log.text)")
        #expect(givenBack.load(ordering: .relaxed) == 3, "every frame's memory given back")
        #expect(report.photo.saved == 0 && !FileManager.default.fileExists(atPath: card.path + "/DCIM"))
        // (The count is posted before its line is logged: the line is waited for.)
        #expect(waitUntil { log.text.contains("photos: 3 photo(s) cancelled before they were developed, memory low: 1, 2, 3") },
                "\(log.text)")
    }
}
