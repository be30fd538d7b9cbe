import ReflexTestSupport
import Foundation
import Testing
import ReflexCore
@testable import ReflexStorage

/// A real child process saves settings in a loop and is killed with SIGKILL at random
/// instants, many times over the same folder. After every kill the file must be whole and
/// hold either the value being replaced or the one replacing it.
@Suite("Settings survive SIGKILL at any instant")
struct SettingsKillTests {
    static let kills = 200

    @Test(.tags(.externalTool)) func killedWritersAlwaysLeaveTheOldOrTheNewSettings() throws {
        let writer = BuildProducts.folder.path + "/settings-writer"
        try #require(FileManager.default.isExecutableFile(atPath: writer), "the settings-writer fixture is built")
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path)
        var generator = SystemRandomNumberGenerator()
        var previous: String?          // what the file held before this child started
        var killedMidWrite = 0

        for round in 0..<Self.kills {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: writer)
            child.arguments = [folder.path, String(round * 1000)]
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            // Mostly a few ms (tens of saves), sometimes before the first save at all.
            usleep(UInt32.random(in: 0...12_000, using: &generator))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal, "round \(round): the child was killed, not exited")

            let announced = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
            var candidates = Array(announced.suffix(2))
            if announced.count < 2, let previous { candidates.insert(previous, at: 0) }

            let names = folder.names()
            #expect(!names.contains { $0.contains(".bad-") }, "round \(round): no file was ever unreadable")
            if names.contains(where: { $0.hasPrefix(".settings.conf.tmp-") }) { killedMidWrite += 1 }

            guard let text = folder.read("settings.conf") else {
                #expect(previous == nil && announced.count <= 1, "round \(round): the settings file vanished")
                continue
            }
            let onDisk = text.split(separator: "\n").joined(separator: "|")
            #expect(candidates.contains(onDisk), "round \(round): the file holds neither the old nor the new settings:\n\(text)")

            let loaded = store.load()
            #expect(loaded.warnings.isEmpty, "round \(round): \(loaded.warnings)")
            #expect(SettingsFile.encode(loaded.settings).split(separator: "\n").joined(separator: "|") == onDisk)
            #expect(!folder.names().contains { $0.hasPrefix(".settings.conf.tmp-") }, "a dead writer's temporary is cleaned up")
            previous = onDisk
        }
        // The test means something only if some kills landed inside a save.
        #expect(killedMidWrite > 0, "no kill landed between creating and renaming the temporary file")
        print("settings kill test: \(Self.kills) kills, \(killedMidWrite) inside a save")
    }
}
