import ReflexTestSupport
import Foundation
import Testing

/// `reflex capture`, as a script runs it: alone, and asking the running camera.
@Suite("reflex capture", .serialized, .tags(.externalTool))
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

    /// The self-timer: the photo no sooner than its delay after the command, the countdown
    /// said each second; and it takes its own photos (no --burst beside it).
    @Test func theSelfTimerTakesThePhotoAfterItsDelay() throws {
        let state = StateFolder()
        let started = Date()
        let run = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", state.path + "/card",
                                 "--self-timer", "2s", "--json"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.errors)")
        #expect(Self.photoLines(run.output).count == 1, "\(run.output)")
        #expect(elapsed >= 2, "the photo waited for its delay: \(elapsed) s")
        // (Alone, the stream starts and settles within the countdown: the seconds still left
        // after it are said, none on a machine slow to start the stream.)
        #expect(run.errors.contains("self-timer: the photo in 2 s"), "\(run.errors)")
        let both = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "--self-timer", "10s", "--burst", "3"])
        #expect(both.status != 0 && both.errors.contains("leave out --burst"), "\(both.errors)")
    }

    /// `--interval 1s --count 3`: three photos on the interval's grid (the last at least 2 s
    /// after the first); out-of-range values and a burst beside it are refused.
    @Test func anIntervalTakesItsCountOnItsGrid() throws {
        let state = StateFolder()
        let started = Date()
        let run = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", state.path + "/card",
                                 "--interval", "1s", "--count", "3", "--json"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.errors)")
        #expect(Self.photoLines(run.output).count == 3, "\(run.output)")
        #expect(elapsed >= 2, "the photos waited for their times: \(elapsed) s")
        #expect(run.errors.contains("interval: 3 photos every 1s"), "\(run.errors)")
        for bad in [["--interval", "0s"], ["--interval", "25h"], ["--interval", "2s", "--count", "0"],
                    ["--interval", "2s", "--delay", "2d"], ["--interval", "2s", "--burst", "3"]] {
            let refused = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path] + bad)
            #expect(refused.status != 0 && refused.errors.contains("--interval"), "\(bad): \(refused.errors)")
        }
    }

    /// `--bracket 3 --bracket-step 2/3`: three photos of the frames that follow, the base,
    /// 2/3 of a stop under and over (their exposure × ISO, as the replies give them, in the
    /// order they were saved); a bracket
    /// beside a burst, or out of range, is refused with the reason.
    @Test func aBracketTakesItsFramesOneAfterAnother() throws {
        let state = StateFolder()
        // A frame the stream drops (the simulated sensor's reader starved on a busy host, as
        // a real sensor drops one when no buffer is back in time) is asked for again: the
        // bracket is whole however busy the machine.
        let run = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", state.path + "/card",
                                 "--format", "jpeg", "--bracket", "3", "--bracket-step", "2/3", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let photos = Self.photoLines(run.output)
        try #require(photos.count == 3, "\(run.output)")
        let frames = photos.map { Int($0["frame"] as? Double ?? 0) }
        // (Consecutive where the stream drops none: BracketCaptureTests steps it. A frame
        // asked for again comes a few frames later.)
        #expect(Set(frames).count == 3, "three frames: \(frames)")
        let products = photos.map { ($0["exposureSeconds"] as? Double ?? 0) * ($0["iso"] as? Double ?? 0) }.sorted()
        let stops = products.map { log2($0 / products[1]) }
        #expect(abs(stops[0] + 2.0 / 3) < 0.1 && abs(stops[2] - 2.0 / 3) < 0.1, "2/3 of a stop under and over: \(products)")
        for bad in [["--bracket", "4"], ["--bracket", "3", "--bracket-step", "4"], ["--bracket", "3", "--burst", "3"]] {
            let refused = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path] + bad)
            #expect(refused.status != 0 && refused.errors.contains("--bracket"), "\(bad): \(refused.errors)")
        }
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
        let deadline = Date().addingTimeInterval(300)  // (a safety net on a busy machine)
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

/// Photos and SIGKILL: `reflex capture` bursts killed at moments spread over their saves
/// never leave a visible file that is not whole (the temporary ones are hidden, and removed
/// by the next start).
@Suite("reflex capture killed mid-save", .serialized, .tags(.externalTool))
struct CaptureKillTests {
    static func visibleCount(_ card: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: card + "/DCIM/100REFLX")) ?? []).filter { !$0.hasPrefix(".") }.count
    }

    @Test func aKilledBurstLeavesOnlyWholePhotos() throws {
        let state = StateFolder()
        let card = state.path + "/card"
        let folder = BuildProducts.folder
        var killed = 0
        // What each round not killed said, for the failure's message: a round that ends by
        // itself before its kill says why on its standard error.
        var endedByThemselves: [String] = []
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        for round in 0..<6 {
            let process = Process()
            process.executableURL = folder.appendingPathComponent("reflex")
            process.arguments = ["capture", "--sensor", "sim", "--state-dir", state.path, "-o", card,
                                 "--format", "raw+jpeg", "--burst", "20"]
            process.environment = ProcessInfo.processInfo.environment.merging(["REFLEX_VERBOSE": "1"]) { $1 }
            let errors = state.path + "/round-\(round).log"
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            try process.run()
            // Once this round's first photo is on the card, at moments spread over its saves.
            let before = Self.visibleCount(card)
            let deadline = Date().addingTimeInterval(300)
            while process.isRunning && Self.visibleCount(card) == before && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            Thread.sleep(forTimeInterval: Double(round) * 0.15)
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
                process.waitUntilExit()
            } else {
                process.waitUntilExit()
                let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                endedByThemselves.append("round \(round), status \(process.terminationStatus): "
                                         + said.split(separator: "\n").suffix(8).joined(separator: " | "))
            }
        }
        #expect(killed >= 4, "the bursts were killed while saving; ended by themselves: \(endedByThemselves)")
        let photos = card + "/DCIM/100REFLX"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []
        let visible = names.filter { !$0.hasPrefix(".") }
        #expect(visible.count >= 4, "photos were saved before the kills: \(names)")
        for name in visible {
            let path = photos + "/" + name
            if name.hasSuffix(".JPG") {
                let check = try ProgramRun(executable: URL(fileURLWithPath: "/usr/bin/jpeginfo"), ["-c", path])
                #expect(check.status == 0 && check.output.contains(" OK") && !check.output.contains("ERROR")
                        && !check.output.contains("WARNING"), "\(name): \(check.output)")
            } else {
                let identify = try ProgramRun(executable: URL(fileURLWithPath: "/usr/bin/raw-identify"), ["-v", path])
                #expect(identify.output.contains("Image size:  1280 x 720"), "\(name): \(identify.output.prefix(300))")
            }
        }
        // The next start removes what the killed savers left hidden, and numbers go on.
        let next = try ReflexRun(["capture", "--sensor", "sim", "--state-dir", state.path, "-o", card, "--format", "jpeg"])
        #expect(next.status == 0, "\(next.errors)")
        let after = (try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []
        #expect(after.filter { $0.hasPrefix(".") }.isEmpty, "leftovers: \(after)")
        let numbers = visible.compactMap { Int($0.dropFirst(4).prefix(4)) }
        let written = next.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(written.suffix(8).prefix(4)).map { n in numbers.allSatisfy { $0 < n } } == true,
                "the next number \(written) is above every number on the card")
    }

    /// An interval run killed after its third photo: each photo taken before the kill is on
    /// the card whole (each is saved as it is taken, not at the run's end).
    @Test func aKilledIntervalRunKeepsEveryPhotoTakenBeforeIt() throws {
        let state = StateFolder()
        let card = state.path + "/card"
        let process = Process()
        process.executableURL = BuildProducts.folder.appendingPathComponent("reflex")
        process.arguments = ["capture", "--sensor", "sim", "--state-dir", state.path, "-o", card, "--format", "jpeg",
                             "--interval", "1s", "--count", "30"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(300)  // (a safety net on a busy machine)
        while process.isRunning && Self.visibleCount(card) < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(process.isRunning, "the run was still going at its third photo")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let photos = card + "/DCIM/100REFLX"
        let visible = ((try? FileManager.default.contentsOfDirectory(atPath: photos)) ?? []).filter { !$0.hasPrefix(".") }
        #expect(visible.count >= 3 && visible.count < 30, "\(visible)")
        for name in visible {
            let check = try ProgramRun(executable: URL(fileURLWithPath: "/usr/bin/jpeginfo"), ["-c", photos + "/" + name])
            #expect(check.status == 0 && check.output.contains(" OK") && !check.output.contains("ERROR"), "\(name): \(check.output)")
        }
    }
}
