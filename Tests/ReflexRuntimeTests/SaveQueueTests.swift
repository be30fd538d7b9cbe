import ReflexTestSupport
import Foundation
import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem
import Synchronization
import Testing
@testable import ReflexRuntime

/// Saving that never loses a shot (docs/camera.md, Photos), on a real small file
/// system: a full card holds the photo with Retry and Discard; a retry writes the same
/// bytes; a discard leaves the card as it was; a missing card holds photos until it is back.
@Suite("Save queue", .serialized)
struct SaveQueueTests {
    /// The photo pipeline alone, fed photos of simulated frames as the sensor thread would.
    final class Rig {
        let state = TemporaryFolder()
        let status = StatusBoard()
        let photos: PhotoPipeline
        let log = TestLog()
        let describer = PhotoDescriber(calibration: .simulated, software: "Reflex test")
        private var cameraStatus = CameraStatus()

        init(card: String, cardSpace: (@Sendable () -> Int64?)? = nil) {
            photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: card), counter: PhotoCounter(folder: state.path)), describer: describer,
                                   status: status, cardSpace: cardSpace, giveBack: { _ in }, log: log.write)
            #expect(photos.start())
        }

        func stop() { photos.stop() }

        var report: CameraStatus {
            status.update(&cameraStatus)
            return cameraStatus
        }

        /// Photo `number` of a 640x360 simulated frame, as pressed.
        static func capture(_ number: Int, format: CaptureFormat) -> TakenPhoto {
            let layout = RawLayout(width: SimulatedCamera.binnedWidth, height: SimulatedCamera.binnedHeight,
                                   format: SimulatedScene.format)
            let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.byteCount, alignment: 64)
            defer { pixels.deallocate() }
            SimulatedScene(noise: true).render(into: pixels.baseAddress!, layout: layout, time: Double(number), setting:
                                               ExposureSetting(exposure: 0.01, analogGain: 1), frameNumber: UInt64(number))
            let mode = CameraSession.Mode(path: "simulated", card: "test", fourCC: 0x3231_4752, width: layout.width,
                                          height: layout.height, bytesPerLine: layout.bytesPerLine, rawFormat: layout.format,
                                          framesPerSecond: 30)
            let copy = FrameCopy()
            copy.fill(SensorFrame(bytes: UnsafeRawBufferPointer(pixels), mode: mode, sequence: UInt32(number),
                                  timestampNanoseconds: Int64(number) * 1_000_000_000,
                                  exposure: ExposureSetting(exposure: 0.01, analogGain: 1),
                                  parameters: ISPParameters(blackLevel: SimulatedScene.blackLevel, whiteLevel: SimulatedScene.whiteLevel,
                                                            whiteBalance: SIMD3(1.5, 1, 1.6),
                                                            colorMatrix: ColourCalibration().previewMatrix),
                                  sensorZoom: 1))
            var settings = CameraSettings()
            settings.format = format
            return TakenPhoto(frame: copy, press: ControlMailbox.CaptureRequest(number: number, ticket: nil, pressedAt: 1,
                                                                                 framing: Framing(zoom: 1), format: nil),
                                settings: settings, iso: 100, framesLate: 0,
                                pressedAt: PhotoTime(year: 2026, month: 11, day: 23, hour: 12, minute: 0, second: number))
        }

        /// The files a photo makes, developed apart: what the card must hold, byte for byte.
        func expectedFiles(_ capture: TakenPhoto) throws -> [(extension: String, bytes: [UInt8])] {
            try PhotoDeveloper(describer: describer).develop(capture).files
        }
    }

    static func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

    @Test(.tags(.externalTool)) func aFullCardHoldsThePhotoAndRetryWritesTheSameBytes() throws {
        let card = try SmallCard(kilobytes: 4096)
        let rig = Rig(card: card.path)
        defer { rig.stop() }
        let first = Rig.capture(1, format: .raw), second = Rig.capture(2, format: .raw)
        let expected = try [rig.expectedFiles(first), rig.expectedFiles(second)]
        try card.fill(leaving: 64 * 1024)
        #expect(rig.photos.inbox.send(first))
        #expect(waitUntil { rig.report.photo.saveProblem?.kind == .storageFull }, "the problem is said: \(rig.log.text)")
        #expect(rig.report.photo.saveProblem?.message == "Storage full – photo not saved")
        #expect(rig.report.photo.saveProblem?.detail == "1 photo kept · free space, or switch to JPEG")
        #expect(card.photos.isEmpty, "nothing half-written, no temporary file left: \(card.photos)")
        // A second press is held behind it, in order.
        #expect(rig.photos.inbox.send(second))
        #expect(waitUntil { rig.report.pendingSaves == 2 && rig.report.photo.saveProblem?.waiting == 2 })
        // Space freed, Retry: both saved, the same bytes as developed, numbers in order.
        card.freeFiller()
        #expect(rig.photos.decisions.send(.retry))
        #expect(waitUntil { rig.report.photo.saved == 2 }, "saved after the retry: \(rig.log.text)")
        // (The report says the queue is empty a moment after the second save: waited for, not read at once.)
        #expect(waitUntil { rig.report.photo.saveProblem == nil && rig.report.pendingSaves == 0 }, "the banner goes")
        #expect(card.photos == ["RFLX0001.DNG", "RFLX0002.DNG"])
        for (index, files) in expected.enumerated() {
            let written = Self.contents(card.path + "/DCIM/100REFLX/RFLX000\(index + 1).DNG")
            let held = try #require(files.first)
            #expect(written == held.bytes, "photo \(index + 1) is bit for bit the one held")
        }
    }

    @Test(.tags(.externalTool)) func discardDropsThatPhotoAloneAndLeavesTheCardAsItWas() throws {
        let card = try SmallCard(kilobytes: 4096)
        let rig = Rig(card: card.path)
        defer { rig.stop() }
        let pair = Rig.capture(1, format: .rawPlusJPEG)
        let files = try rig.expectedFiles(pair)
        try #require(files.map(\.extension) == ["DNG", "JPG"] && files[1].bytes.count > 24 * 1024)
        // Room for the DNG and not for the JPEG: the pair is cut in half by the full card.
        try card.fill(leaving: Int64((files[0].bytes.count + 4095) / 4096 * 4096) + 8192)
        #expect(rig.photos.inbox.send(pair))
        #expect(waitUntil { rig.report.photo.saveProblem?.kind == .storageFull }, "\(rig.log.text)")
        #expect(card.photos == ["RFLX0001.DNG"], "the DNG went, the JPEG did not: \(card.photos)")
        #expect(rig.photos.decisions.send(.discard))
        #expect(waitUntil { rig.report.photo.saveProblem == nil && rig.report.pendingSaves == 0 })
        #expect(card.photos.isEmpty, "the card as it was: \(card.photos)")
        // The next photo saves once there is room, under a new number (never one used before).
        card.freeFiller()
        #expect(rig.photos.inbox.send(Rig.capture(2, format: .jpeg)))
        #expect(waitUntil { rig.report.photo.saved == 1 }, "\(rig.log.text)")
        #expect(card.photos == ["RFLX0002.JPG"])
    }

    /// A card mounted read-only (its lock switch, or the kernel's remount after finding its
    /// file system damaged): the photo is held, the banner says why and what helps, nothing is
    /// written; writable again, Retry saves it.
    @Test(.tags(.externalTool)) func aReadOnlyCardHoldsThePhotoAndSaysWhy() throws {
        let card = try SmallCard(kilobytes: 4096)
        let rig = Rig(card: card.path)
        defer { rig.stop() }
        try card.remount(readOnly: true)
        #expect(rig.photos.inbox.send(Rig.capture(1, format: .jpeg)))
        #expect(waitUntil { rig.report.photo.saveProblem != nil }, "\(rig.log.text)")
        #expect(rig.report.photo.saveProblem?.message == "Card is read-only – photo not saved")
        #expect(rig.report.photo.saveProblem?.detail == "1 photo kept · check the card's lock, or use another")
        #expect(card.photos.isEmpty)
        try card.remount(readOnly: false)
        #expect(rig.photos.decisions.send(.retry))
        #expect(waitUntil { rig.report.photo.saved == 1 }, "saved after the retry: \(rig.log.text)")
        #expect(card.photos == ["RFLX0001.JPG"] && rig.report.photo.saveProblem == nil)
    }

    /// The card's check as the loop reads it: no card, a read-only card (no room, but not
    /// "full"), free bytes.
    @Test func theStatusSaysAReadOnlyCardApartFromAFullOne() {
        let status = StatusBoard()
        var report = CameraStatus()
        status.postStorage(freeBytes: nil, readOnly: true)
        status.update(&report)
        #expect(report.storageChecked && report.storageFreeBytes == nil && !report.storageReadOnly)
        status.postStorage(freeBytes: 0, readOnly: true)
        status.update(&report)
        #expect(report.storageFreeBytes == 0 && report.storageReadOnly)
        status.postStorage(freeBytes: 0)
        status.update(&report)
        #expect(report.storageFreeBytes == 0 && !report.storageReadOnly)
    }

    @Test func photosWaitForAMissingCardAndAreSavedWhenItIsBack() throws {
        let card = TemporaryFolder()
        let present = Atomic<Bool>(false)
        let rig = Rig(card: card.path, cardSpace: { present.load(ordering: .relaxed) ? 1 << 30 : nil })
        defer { rig.stop() }
        for number in 1...3 { #expect(rig.photos.inbox.send(Rig.capture(number, format: .jpeg))) }
        #expect(waitUntil { rig.report.photo.saveProblem?.kind == .cardMissing && rig.report.pendingSaves == 3 },
                "\(rig.log.text)")
        #expect(rig.report.photo.saveProblem?.detail == "3 photos waiting: saved when the card is back")
        #expect(!FileManager.default.fileExists(atPath: card.path + "/DCIM"), "nothing written where no card is")
        present.store(true, ordering: .relaxed)
        #expect(waitUntil { rig.report.photo.saved == 3 }, "saved by themselves: \(rig.log.text)")
        #expect(rig.report.photo.saveProblem == nil)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: card.path + "/DCIM/100REFLX").sorted()) ?? []
        #expect(names == ["RFLX0001.JPG", "RFLX0002.JPG", "RFLX0003.JPG"], "none lost, none doubled, in order")
    }

    /// A card pulled during a write fails it with EIO, and then is gone: the photo waits for
    /// the card (no Retry needed) and is saved, once, when it is back.
    @Test func aWriteFailedByAPulledCardWaitsForTheCard() throws {
        let card = TemporaryFolder()
        let present = Atomic<Bool>(true)
        // A file where the folder should be: the write fails as a pulled card's does.
        #expect(FileManager.default.createFile(atPath: card.path + "/DCIM", contents: Data()))
        let rig = Rig(card: card.path, cardSpace: { present.load(ordering: .relaxed) ? 1 << 30 : nil })
        defer { rig.stop() }
        #expect(rig.photos.inbox.send(Rig.capture(1, format: .jpeg)))
        #expect(waitUntil { rig.report.photo.saveProblem?.kind == .writeFailed }, "\(rig.log.text)")
        present.store(false, ordering: .relaxed)
        #expect(waitUntil { rig.report.photo.saveProblem?.kind == .cardMissing }, "\(rig.log.text)")
        #expect(rig.log.text.contains("photos: no card; 1 photo(s) wait for it"), "\(rig.log.text)")
        unlink(card.path + "/DCIM")
        present.store(true, ordering: .relaxed)
        #expect(waitUntil { rig.report.photo.saved == 1 }, "saved without Retry: \(rig.log.text)")
        #expect(rig.report.photo.saveProblem == nil)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: card.path + "/DCIM/100REFLX").sorted()) ?? []
        #expect(names == ["RFLX0001.JPG"])
    }
}

/// Photos held for the card survive the camera's end: spilled to its own storage while they
/// wait, queued again by the next start, saved bit for bit.
@Suite("Held photos survive a restart", .serialized)
struct HeldPhotoSpillTests {
    @Test func photosWaitingForTheCardAreSavedByTheNextStart() throws {
        let card = TemporaryFolder()
        let state = TemporaryFolder()
        let present = Atomic<Bool>(false)
        let log = TestLog()
        let describer = PhotoDescriber(calibration: .simulated, software: "Reflex test")
        let spill = HeldPhotoSpill(folder: state.path + "/held", limitBytes: 64 << 20)
        func pipeline(_ status: StatusBoard) -> PhotoPipeline {
            PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: card.path), counter: PhotoCounter(folder: state.path)), describer: describer,
                          status: status, cardSpace: { present.load(ordering: .relaxed) ? 1 << 30 : nil }, spill: spill,
                          giveBack: { _ in }, log: log.write)
        }
        let captures = [SaveQueueTests.Rig.capture(1, format: .rawPlusJPEG), SaveQueueTests.Rig.capture(2, format: .jpeg)]
        let expected = try captures.map { try PhotoDeveloper(describer: describer).develop($0).files }
        var status = CameraStatus()
        let first = pipeline(StatusBoard())
        #expect(first.start())
        for capture in captures { #expect(first.inbox.send(capture)) }
        // No card: both wait, and while they wait they are on the camera's own storage.
        #expect(waitUntil { (try? FileManager.default.contentsOfDirectory(atPath: spill.folder).count) == 3 },
                "spilled: \(log.text)")
        first.stop()  // the camera ends with the photos unsaved (a kill loses nothing more)
        present.store(true, ordering: .relaxed)
        let board = StatusBoard()
        let second = pipeline(board)
        #expect(second.start())
        defer { second.stop() }
        #expect(waitUntil { board.update(&status); return status.photo.saved == 2 }, "saved by the next start: \(log.text)")
        #expect(log.text.contains("2 photo(s) held when the camera last stopped are queued again"))
        let folder = card.path + "/DCIM/100REFLX/"
        try #require(expected.map { $0.map(\.extension) } == [["DNG", "JPG"], ["JPG"]])
        #expect(SaveQueueTests.contents(folder + "RFLX0001.DNG") == expected[0][0].bytes, "bit for bit")
        #expect(SaveQueueTests.contents(folder + "RFLX0001.JPG") == expected[0][1].bytes)
        #expect(SaveQueueTests.contents(folder + "RFLX0002.JPG") == expected[1][0].bytes)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: spill.folder)) == [], "and taken off the camera's storage")
    }
}
