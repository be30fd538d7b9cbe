import Foundation
import ReflexTestSupport
import ReflexCore
import ReflexHardware
import Testing
@testable import ReflexRuntime

/// Enhanced RAW end to end on the simulated sensor, stepped frame by frame: a press takes the
/// frame under way and the ring's other frames, the photo thread merges them into one DNG
/// (lossless JPEG, 16-bit, the frames merged said in its XMP) that LibRaw reads, with less
/// noise than the frame alone, and the ring has every frame back for the next press.
extension CaptureTests {
    @Test(.tags(.externalTool)) func anEnhancedRawMergesTheRingsFramesIntoOneQuieterDNG() throws {
        // Pro, exposure set: the frames differ by their noise alone.
        var pro = CameraSettings()
        pro.mode = .pro
        pro.iso = .manual(ISOSpeed(800))
        pro.shutter = .manual(ShutterSpeed(1, 60))
        let rig = Rig(format: .enhancedRaw, ringFrames: 6, spares: 8, stepped: true, settings: pro)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 8), "the sensor streams")
        let underWay = try #require(rig.recorder.recorded.last)
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame))
        #expect(rig.step())
        #expect(waitUntil { rig.photoReport().saved == 1 }, "saved: \(rig.log.text.suffix(1500))")
        let report = rig.photoReport()
        #expect(report.lastSequence == underWay.sequence, "the reference is the frame under way at the press")
        let dng = rig.card.path + "/DCIM/100REFLX/RFLX0001.DNG"
        #expect(report.lastPaths == [dng], "a DNG alone")

        // The readers photographers' tools stand on take the camera's own merged file.
        let identify = try ProgramRun(["raw-identify", "-v", dng])
        #expect(identify.output.contains("Filter pattern: RGGB") && !identify.output.contains("Unsupported"),
                "LibRaw: \(identify.output + identify.errors)")
        let dcraw = try ProgramRun(["dcraw", "-i", "-v", dng])
        #expect(dcraw.status == 0 && dcraw.output.contains("Filter pattern: RG/GB"), "dcraw: \(dcraw.output + dcraw.errors)")
        let validation = try ProgramRun(["exiftool", "-validate", "-warning", "-a", dng])
        #expect(validation.output.contains("Validate") && !validation.output.contains("Warning"),
                "exiftool -validate: \(validation.output)")
        let render = try ProgramRun(["dcraw_emu", "-h", dng])
        #expect(render.status == 0 && FileManager.default.fileExists(atPath: dng + ".ppm"), "dcraw_emu: \(render.errors)")
        let rendered = rig.state.path + "/rawtherapee.tif"
        let rawTherapee = try ProgramRun(["env", "HOME=" + rig.state.path, "rawtherapee-cli", "-o", rendered, "-t", "-Y", "-d",
                                          "-c", dng])
        let renderedBytes = (try? FileManager.default.attributesOfItem(atPath: rendered)[.size] as? Int) ?? 0
        #expect(rawTherapee.status == 0 && !rawTherapee.output.contains("Error") && renderedBytes > 100_000,
                "rawtherapee-cli: \(rawTherapee.output + rawTherapee.errors)")

        let tags = try ExiftoolTags(file: dng)
        #expect(tags["SubIFD:Compression"] == "7", "lossless JPEG")
        #expect(tags["SubIFD:BitsPerSample"] == "16")
        let merged = try #require(tags.number("XMP-reflex:FramesMerged"), "the frames merged, in XMP: \(tags.values.keys.sorted())")
        // The ring kept six frames: the one under way, four before it and the one that came
        // after (the press is served when it arrives).
        #expect(merged == 6)
        // (The report's count and the log's line are two posts: the line is waited for.)
        #expect(waitUntil { rig.log.text.contains("photo 1: frame \(underWay.sequence) (6 frames merged) → RFLX0001.DNG") },
                "\(rig.log.text)")

        // Against the mean of the frames around the press (the scene without noise, as near
        // as six frames tell), the merge is far closer than the frame under way alone.
        let samples = try #require(CaptureTests.unprocessedRaw(dng), "LibRaw reads the DNG")
        let frames = rig.recorder.recorded.filter { $0.sequence + 4 >= underWay.sequence && $0.sequence <= underWay.sequence + 1 }
        try #require(frames.count == 6)
        let values = frames.map { frame in frame.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) } }
        let count = values[0].count
        try #require(samples.values.count == count)
        let white = try #require(tags.number("SubIFD:WhiteLevel"))
        let scale = white / Double(try #require(frames[0].parameters).whiteLevel)
        var mergedError = 0.0, singleError = 0.0
        let underWayIndex = try #require(frames.firstIndex { $0.sequence == underWay.sequence })
        let reference = values[underWayIndex]
        for index in stride(from: 0, to: count, by: 7) {
            let mean = values.reduce(0.0) { $0 + Double($1[index]) } / 6
            mergedError += (Double(samples.values[index]) / scale - mean) * (Double(samples.values[index]) / scale - mean)
            singleError += (Double(reference[index]) - mean) * (Double(reference[index]) - mean)
        }
        #expect(mergedError < 0.25 * singleError, "merged \(mergedError), one frame \(singleError)")

        // Every frame went back to the ring: another Enhanced RAW merges as many.
        #expect(rig.step(frames: 10))
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame))
        #expect(rig.step())
        #expect(waitUntil { rig.photoReport().saved == 2 }, "saved: \(rig.log.text.suffix(1500))")
        let second = try ExiftoolTags(file: rig.card.path + "/DCIM/100REFLX/RFLX0002.DNG")
        #expect(second.number("XMP-reflex:FramesMerged") == 6)
    }

    /// A memory budget that keeps fewer frames than a merge needs: Enhanced RAW is not offered
    /// (the reason goes to the quick menu with the limits), and a press saves a plain RAW.
    @Test(.tags(.externalTool)) func tooFewFramesKeptOffersRawInstead() throws {
        let rig = Rig(format: .enhancedRaw, ringFrames: 3, spares: 8, stepped: true)
        rig.start()
        defer { rig.stop() }
        #expect(rig.step(frames: 6), "the sensor streams")
        let limits = try #require(rig.sensorReport().limits)
        #expect(limits.enhancedRawUnavailable == SensorLimits.tooFewFramesKept(3, needed: 4))
        #expect(rig.pipeline.mailbox.requestCapture(at: rig.pressDuringTheLastFrame))
        #expect(rig.step())
        #expect(waitUntil { rig.photoReport().saved == 1 }, "saved: \(rig.log.text.suffix(1500))")
        let tags = try ExiftoolTags(file: rig.card.path + "/DCIM/100REFLX/RFLX0001.DNG")
        // (The report's count and the log's line are two posts: the line is waited for.)
        #expect(waitUntil { rig.log.text.contains("photo 1: frame") }, "\(rig.log.text.suffix(1500))")
        #expect(tags["XMP-reflex:FramesMerged"] == nil && !rig.log.text.contains("frames merged"), "a plain RAW")
    }
}
