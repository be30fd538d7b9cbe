import ReflexTestSupport
import Foundation
import Testing

/// Runs the real `reflex` binary, as an integrator would.
struct ReflexRun {
    let status: Int32
    let output: String
    let errors: String

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let folder = BuildProducts.folder
        let run = try ProgramRun(executable: folder.appendingPathComponent("reflex"), arguments,
                                 environment: ProcessInfo.processInfo.environment.filter { $0.key != "REFLEX_STATE_DIR" }
                                     .merging(environment) { $1 })
        (status, output, errors) = (run.status, run.output, run.errors)
    }
}

final class StateFolder {
    let path = NSTemporaryDirectory() + "reflex-cli-\(UUID().uuidString)"
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var settingsFile: String { path + "/settings.conf" }
}

@Suite("The reflex command", .tags(.externalTool))
struct ReflexCommandTests {
    @Test func helpAndVersion() throws {
        let help = try ReflexRun(["--help"])
        #expect(help.status == 0)
        for word in ["settings", "probe", "run", "bench"] {
            #expect(help.output.contains(word), "help mentions \(word)")
        }
        let version = try ReflexRun(["--version"])
        #expect(version.status == 0)
        #expect(version.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    /// The ISP benchmark runs on the real frames and reports every case with its reference
    /// in the same run (a few iterations: this checks the report, not the speed).
    @Test func theISPBenchmarkReportsEachCaseBesideItsReferences() throws {
        let run = try ReflexRun(["bench", "isp", "--iterations", "3"])
        #expect(run.status == 0, "\(run.errors)")
        for text in ["IMX219 1920x1080 RAW10 CSI-2 packed:", "openISP 1920x1080 RGGB 16-bit (10 used):",
                     "reflex preview ISP", "libv4lconvert → RGB24 (full size)", "timed in pairs", "memcpy of the frame's", "output alone"] {
            #expect(run.output.contains(text), "\(text)\n\(run.output)")
        }
        // The ISP allocates nothing a frame, in an unoptimised build too.
        let ispRows = run.output.split(separator: "\n").filter { $0.contains("reflex preview ISP") }
        #expect(ispRows.count >= 2 && ispRows.allSatisfy { $0.hasSuffix(" 0.00") }, "\(ispRows)")
        if sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 {
            #expect(ispRows.count == 4 && run.output.contains("on two cores (libv4lconvert on one)"), "\(run.output)")
        }
        // Motion-JPEG: the preview's decoder allocates nothing a frame, where TurboJPEG does.
        let jpegRow = run.output.split(separator: "\n").first { $0.contains("reflex Motion-JPEG decoder") }
        #expect(jpegRow?.hasSuffix(" 0.00") == true, "\(run.output)")
        #expect(run.output.contains("libjpeg-turbo's TurboJPEG, the same decode"), "\(run.output)")
    }

    /// Instruction counts: the preview ISP and libv4lconvert each counted by callgrind in a child
    /// of the binary, and set beside each other (the counts' size is the bench's to report: a
    /// debug build's ISP takes many times the release build's).
    @Test func theInstructionBenchmarkCountsTheISPAndItsReferenceWithCallgrind() throws {
        let run = try ReflexRun(["bench", "instructions", "--kernels", "isp,v4lconvert", "--iterations", "1"])
        #expect(run.status == 0, "\(run.errors)\n\(run.output)")
        func millions(_ kernel: String) -> Double? {
            let row = run.output.split(separator: "\n").first { $0.hasPrefix("  \(kernel) ") }
            return row.flatMap { line in
                let words = line.split(separator: " ")
                return words.firstIndex(of: "M").flatMap { Double(words[$0 - 1]) }
            }
        }
        let isp = millions("isp"), reference = millions("v4lconvert")
        #expect(isp.map { $0 > 1 } == true && reference.map { $0 > 1 } == true, "\(run.output)")
        #expect(run.output.contains("isp against v4lconvert: "), "\(run.output)")
    }

    /// Start-up as a benchmark: the camera started on the simulated sensor, timed from exec to
    /// its first page flip, beside the floor of exec'ing the binary at all.
    @Test func theStartBenchmarkTimesStartsToTheFirstFrame() throws {
        let run = try ReflexRun(["bench", "start", "--starts", "2"])
        #expect(run.status == 0, "\(run.errors)")
        let row = run.output.split(separator: "\n").first { $0.contains("reflex: exec → first frame on the panel") }
        let median = row.flatMap { $0.split(separator: " ").compactMap { Double($0) }.first }
        #expect(median.map { $0 > 0 && $0 < 10_000 } == true, "\(run.output)")
        #expect(run.output.contains("reference: exec → exit of reflex --version"), "\(run.output)")
    }

    @Test func everyKeyRoundTripsThroughSetAndGet() throws {
        let state = StateFolder()
        let values: [(String, String)] = [
            ("mode", "pro"), ("format", "raw+jpeg"), ("geotag", "on"), ("geotag-precision", "approximate"),
            ("iso", "3200"), ("shutter", "1/125"), ("shutter", "0.3\""), ("focus", "0.42"),
            ("white-balance", "tungsten"), ("white-balance", "6100K"), ("dial", "wb"), ("zebras", "on"),
        ]
        for (key, value) in values {
            let set = try ReflexRun(["settings", "set", key, value, "--state-dir", state.path])
            #expect(set.status == 0, "set \(key) \(value): \(set.errors)")
            #expect(set.output == "\(key) = \(value)\n")
            let get = try ReflexRun(["settings", "get", key, "--state-dir", state.path])
            #expect(get.output == value + "\n", "get \(key)")
        }
        let show = try ReflexRun(["settings", "show", "--state-dir", state.path])
        #expect(show.output.contains("mode = pro\n"))
        #expect(show.output.contains("white-balance = 6100K\n"))
        #expect(show.output.contains("shutter = 0.3\"\n"))
        #expect(try String(contentsOfFile: state.settingsFile, encoding: .utf8).contains("focus = 0.42\n"))
    }

    @Test(arguments: [
        (["settings", "set", "colour", "red"], "colour"),
        (["settings", "set", "iso", "450"], "450"),
        (["settings", "set", "shutter", "1/300"], "1/300"),
        (["settings", "set", "focus", "2"], "\"2\""),
        (["settings", "set", "white-balance", "1200K"], "1200K"),
        (["settings", "set", "mode", "manual"], "manual"),
        (["settings", "set", "iso"], "value"),
    ])
    func badInputIsRefusedWithAMessageAndNothingIsWritten(arguments: [String], mention: String) throws {
        let state = StateFolder()
        let run = try ReflexRun(arguments + ["--state-dir", state.path])
        #expect(run.status != 0)
        #expect(run.errors.contains(mention), "the message names what was wrong: \(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: state.settingsFile))
    }

    @Test func manualValuesNeedProModeAndLeavingProClearsThem() throws {
        let state = StateFolder()
        let refused = try ReflexRun(["settings", "set", "iso", "400", "--state-dir", state.path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("mode pro"))
        _ = try ReflexRun(["settings", "set", "mode", "pro", "--state-dir", state.path])
        _ = try ReflexRun(["settings", "set", "iso", "400", "--state-dir", state.path])
        _ = try ReflexRun(["settings", "set", "mode", "auto", "--state-dir", state.path])
        #expect(try ReflexRun(["settings", "get", "iso", "--state-dir", state.path]).output == "auto\n")
    }

    @Test func theEnvironmentChoosesTheStateFolder() throws {
        let state = StateFolder()
        let set = try ReflexRun(["settings", "set", "format", "raw"], environment: ["REFLEX_STATE_DIR": state.path])
        #expect(set.status == 0, "\(set.errors)")
        #expect(FileManager.default.fileExists(atPath: state.settingsFile))
    }

    @Test func aCorruptFileIsReportedAndTheCommandStillWorks() throws {
        let state = StateFolder()
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        try "reflex-settings 1\nmode = pro\niso = 4".write(toFile: state.settingsFile, atomically: false, encoding: .utf8)
        let show = try ReflexRun(["settings", "show", "--state-dir", state.path])
        #expect(show.status == 0)
        #expect(show.errors.contains("truncated"))
        #expect(show.output.contains("mode = auto\n"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(kept.contains { $0.hasPrefix("settings.conf.bad-") })
    }

    @Test func anUnwritableStateFolderIsAClearError() throws {
        let state = StateFolder()
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: state.path + "/file", contents: Data())
        let run = try ReflexRun(["settings", "set", "mode", "pro", "--state-dir", state.path + "/file/sub"])
        #expect(run.status == 74)
        #expect(run.errors.contains("cannot save the settings"))
    }

    @Test func runStaysUpAndStopsCleanlyOnSIGTERM() throws {
        let state = StateFolder()
        let folder = BuildProducts.folder
        let process = Process()
        process.executableURL = folder.appendingPathComponent("reflex")
        process.arguments = ["run", "--state-dir", state.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        // Read the log until it says it is running, then stop it as systemd would.
        var log = ""
        while !log.contains("waiting for SIGTERM") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
        }
        #expect(process.isRunning, "reflex run stays up: \(log)")
        #expect(log.contains("first start"))
        #expect(log.contains("camera: "))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        log += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(log.contains("stopping (SIGTERM)"))
    }

    /// Runs `reflex run --sensor sim` until a summary (from the second on) shows the frame
    /// within half a stop of mid grey, or `summaries` summaries have passed; returns the log.
    /// (Auto exposure settles in frames, and a slow debug build on a loaded machine renders
    /// few a second: the bound, two minutes of summaries, is only there so a camera that
    /// never settles fails instead of hanging.)
    func runOnSimulatedSensor(state: StateFolder, summaries: Int = 24, sensor: String = "sim") throws -> String {
        let folder = BuildProducts.folder
        let process = Process()
        process.executableURL = folder.appendingPathComponent("reflex")
        process.arguments = ["run", "--sensor", sensor, "--state-dir", state.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        var log = ""
        while case let seen = log.components(separatedBy: "frames in").count - 1, seen < summaries {
            if seen >= 2 && (127...255).contains(lastLuma(log)) && log.hasSuffix("\n") { break }
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
        }
        return log
    }

    /// The luma of the log's last summary, in thousandths.
    func lastLuma(_ log: String) -> Int {
        log.components(separatedBy: "luma ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
    }

    /// The whole sensor side on the simulated sensor: streaming, metering, Auto exposure
    /// driving the controls, until the log's summary shows the frame at mid grey.
    @Test func runOnTheSimulatedSensorExposesToMidGrey() throws {
        let log = try runOnSimulatedSensor(state: StateFolder())
        #expect(log.contains("camera: streaming simulated"))
        #expect(log.contains("1843200 bytes a frame"), "1280x720 12-bit frames arrive whole")
        #expect((127...255).contains(lastLuma(log)), "within half a stop of mid grey (180/1000): \(lastLuma(log))/1000\n\(log)")
        #expect(log.contains("AWB about "), "Auto white balance reports its estimate")
        // (The count of allocations a frame is checked in the image, on the release build:
        // this debug build allocates in unspecialised generics.)
        #expect(log.contains(" allocations a frame"))
    }

    /// Pro with a manual shutter and Auto ISO: the shutter stays, gain alone finds mid grey;
    /// the Tungsten preset fixes white balance through the colour calibration.
    @Test func aManualShutterIsKeptAndAutoISOExposesAroundIt() throws {
        let state = StateFolder()
        for (key, value) in [("mode", "pro"), ("shutter", "1/500"), ("white-balance", "tungsten")] {
            #expect(try ReflexRun(["settings", "set", key, value, "--state-dir", state.path]).status == 0)
        }
        let log = try runOnSimulatedSensor(state: state)
        #expect(log.contains("camera: manual shutter 1/500"))
        let summary = log.components(separatedBy: "\n").last { $0.contains("frames in") } ?? ""
        #expect(summary.contains("exposure 1/500 s"), "\(summary)")
        #expect(!summary.contains("ISO 100,"), "the gain rose to make up for the short shutter: \(summary)")
        #expect((127...255).contains(lastLuma(log)), "\(lastLuma(log))/1000\n\(log)")
        #expect(log.contains("camera: manual white balance Tungsten 3200K → gains "), "\(log)")
        #expect(log.contains("camera: autofocus on"), "Auto focus stays with the lens's motor: \(log)")
        #expect(summary.contains("WB Tungsten 3200K"), "\(summary)")
    }

    /// A CSI sensor's exposure control counts lines: their time comes from PIXEL_RATE and
    /// HBLANK, a manual shutter becomes whole lines, and Auto ISO exposes around it.
    @Test func aSensorWhoseExposureCountsLinesTakesAManualShutter() throws {
        let state = StateFolder()
        for (key, value) in [("mode", "pro"), ("shutter", "1/500")] {
            #expect(try ReflexRun(["settings", "set", key, value, "--state-dir", state.path]).status == 0)
        }
        let log = try runOnSimulatedSensor(state: state, sensor: "sim-csi")
        #expect(log.contains("exposure control \"Exposure\" 4…996 lines of 33.33 µs (from PIXEL_RATE and HBLANK), "
                             + "up to 65531 lines (2.184 s) with the frame lengthened by VBLANK 280…64815"), "\(log)")
        let summary = log.components(separatedBy: "\n").last { $0.contains("frames in") } ?? ""
        // 1/500 s is 60 lines of 33.3 µs.
        #expect(summary.contains("exposure 1/500 s"), "\(summary)")
        #expect((127...255).contains(lastLuma(log)), "\(lastLuma(log))/1000\n\(log)")
    }

    /// A manual focus position reaches the lens's focus control (the simulated sensor has one).
    @Test func aManualFocusGoesToTheLensMotor() throws {
        let state = StateFolder()
        for (key, value) in [("mode", "pro"), ("focus", "0.4")] {
            #expect(try ReflexRun(["settings", "set", key, value, "--state-dir", state.path]).status == 0)
        }
        let log = try runOnSimulatedSensor(state: state, summaries: 1)
        #expect(log.contains("camera: autofocus off, focus 0.4 → focus, absolute = 614"), "\(log)")
    }

    @Test func probeSpeaksJSONForScripts() throws {
        let empty = StateFolder()
        try FileManager.default.createDirectory(atPath: empty.path, withIntermediateDirectories: true)
        let run = try ReflexRun(["probe", "--json", "--dev", empty.path])
        #expect(run.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(parsed?["cameras"] as? [Any] != nil)
        #expect(parsed?["media"] as? [Any] != nil)
        #expect(parsed?["displays"] as? [Any] != nil)
        #expect(parsed?["inputs"] as? [Any] != nil)
        #expect(parsed?["videoEncoder"] as? String == "libx264")
    }

    @Test func probeReportsEachKindOfHardware() throws {
        let empty = StateFolder()
        try FileManager.default.createDirectory(atPath: empty.path, withIntermediateDirectories: true)
        let run = try ReflexRun(["probe", "--dev", empty.path])
        #expect(run.status == 0)
        #expect(run.output == """
            Cameras (V4L2):
              none found
            Media controllers:
              none found
            Displays (DRM/KMS):
              none found
            Input devices (libinput):
              none found
            Video encoder (H.264, for movies):
              libx264 (ultrafast, zerolatency) (no V4L2 memory-to-memory H.264 encoder on this machine)

            """)
    }
}
