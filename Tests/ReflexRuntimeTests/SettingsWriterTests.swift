import Foundation
import ReflexCore
import ReflexStorage
import Testing
@testable import ReflexRuntime

/// The settings writer's one job: the newest settings into the file, off the loop's thread;
/// a folder it cannot write is said in the camera's status, and cleared when it can again.
@Suite("The settings writer")
struct SettingsWriterTests {
    @Test func itSavesTheNewestAndSaysWhenItCannot() throws {
        let folder = NSTemporaryDirectory() + "reflex-writer-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A file where the state folder should be: nothing can be saved under it.
        _ = FileManager.default.createFile(atPath: folder, contents: Data())
        let status = StatusBoard()
        let writer = SettingsWriter(store: SettingsStore(folder: folder + "/state"), status: status, log: { _ in })
        writer.start()
        defer { writer.stop() }
        var pro = CameraSettings()
        pro.mode = .pro
        writer.save(pro)
        var snapshot = CameraStatus()
        #expect(waitUntil { status.update(&snapshot); return snapshot.settingsError != nil })
        #expect(snapshot.settingsError?.hasPrefix("Settings not saved: ") == true, "\(snapshot.settingsError ?? "")")

        try FileManager.default.removeItem(atPath: folder)
        pro.zebras = true
        writer.save(pro)
        #expect(waitUntil { status.update(&snapshot); return snapshot.settingsError == nil }, "cleared once it saves")
        #expect(SettingsStore(folder: folder + "/state").load().settings == pro, "the newest settings are in the file")
    }
}
