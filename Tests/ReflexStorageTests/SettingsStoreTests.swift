import ReflexTestSupport
import Foundation
import Testing
import ReflexCore
@testable import ReflexStorage
import ReflexSystem

@Suite("Settings that survive restarts (docs/camera.md, Settings)")
struct SettingsStoreTests {
    @Test func theFirstStartIsAutoWithoutAWarning() {
        let folder = TemporaryFolder()
        let loaded = SettingsStore(folder: folder.path).load()
        #expect(loaded.isFirstStart)
        #expect(loaded.settings == .firstStart)
        #expect(loaded.settings.mode == .auto)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func aCameraLeftInAutoStartsInAuto() throws {
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path)
        var settings = CameraSettings()
        settings.setMode(.pro)
        try store.save(settings)
        settings.setMode(.auto)
        try store.save(settings)
        let loaded = store.load()
        #expect(loaded.settings.mode == .auto)
        #expect(!loaded.isFirstStart)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func aCameraLeftInProStartsInProWithItsManualValues() throws {
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path)
        var settings = CameraSettings()
        settings.setMode(.pro)
        settings.iso = .manual(ISOSpeed(1600))
        settings.shutter = .manual(ShutterSpeed(1, 60))
        settings.focus = .manual(FocusPosition(0.72))
        settings.whiteBalance = .preset(.cloudy)
        settings.format = .rawPlusJPEG
        settings.geotag = true
        try store.save(settings)
        #expect(store.load().settings == settings)
        #expect(folder.names() == ["settings.conf"])
    }

    @Test func theStateFolderIsCreatedWhenMissing() throws {
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path + "/var/lib/reflex")
        try store.save(.firstStart)
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    @Test(arguments: [
        ("empty", ""),
        ("garbage", "\u{7f}ELF\u{2}\u{1}\u{1} not settings at all"),
        ("truncated", "# Reflex camera settings\nreflex-settings 1\nmode = pro\niso = 40"),
        ("bad value", "reflex-settings 1\nmode = pro\niso = 99999\nend\n"),
    ])
    func aBadFileGivesDefaultsAWarningAndIsKeptAside(name: String, content: String) throws {
        let folder = TemporaryFolder()
        folder.write(content, to: "settings.conf")
        let store = SettingsStore(folder: folder.path)
        let loaded = store.load(now: 1_763_700_000)
        #expect(loaded.settings == .firstStart, "\(name)")
        try #require(loaded.warnings.count == 1)
        #expect(loaded.warnings[0].contains("cannot be used"))
        #expect(loaded.setAsidePath == folder.path + "/settings.conf.bad-1763700000")
        #expect(folder.names() == ["settings.conf.bad-1763700000"])
        #expect(folder.read("settings.conf.bad-1763700000") == content, "the bad file is kept as it was")
        // The next change writes a good file again.
        try store.save(.firstStart)
        #expect(store.load().warnings.isEmpty)
    }

    @Test func setAsideFilesNeverOverwriteEachOtherAndOnlyTheNewestAreKept() {
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path)
        for _ in 0..<(SettingsStore.setAsideKept + 3) {
            folder.write("garbage", to: "settings.conf")
            _ = store.load(now: 42)
        }
        let kept = folder.names()
        #expect(kept.count == SettingsStore.setAsideKept)
        #expect(kept.allSatisfy { $0.hasPrefix("settings.conf.bad-42") })
    }

    @Test func anUnreadableFileIsAWarningNotACrash() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/settings.conf", withIntermediateDirectories: false)
        let loaded = SettingsStore(folder: folder.path).load()
        #expect(loaded.settings == .firstStart)
        #expect(loaded.warnings.count == 1)
    }

    @Test func savingIntoAnUnwritablePlaceThrowsAClearError() {
        let folder = TemporaryFolder()
        folder.write("a file, not a folder", to: "blocker")
        let store = SettingsStore(folder: folder.path + "/blocker/state")
        #expect(throws: SystemError.self) { try store.save(.firstStart) }
        do { try store.save(.firstStart) } catch {
            #expect(error.description.contains("blocker"))
        }
    }

    @Test func abandonedTemporaryFilesOfDeadWritersAreRemoved() throws {
        let folder = TemporaryFolder()
        // pid 2^22+1 is above Linux's pid_max limit, so no process can have it.
        folder.write("half", to: ".settings.conf.tmp-4194305-7")
        folder.write("live", to: ".settings.conf.tmp-\(getpid())-3")
        _ = SettingsStore(folder: folder.path).load()
        #expect(folder.names() == [".settings.conf.tmp-\(getpid())-3"])
    }

    @Test func threadsSavingAtOnceNeverMixTheirFiles() async throws {
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path)
        var pro = CameraSettings()
        pro.setMode(.pro)
        pro.iso = .manual(ISOSpeed(3200))
        let candidates = [CameraSettings.firstStart, pro]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask { for _ in 0..<50 { try store.save(candidates[worker % 2]) } }
            }
            try await group.waitForAll()
        }
        let loaded = store.load()
        #expect(loaded.warnings.isEmpty)
        #expect(candidates.contains(loaded.settings))
        #expect(folder.names() == ["settings.conf"])
    }

    @Test func theNewestSetAsideFilesAreKeptByTheTimeInTheirNames() {
        let folder = TemporaryFolder()
        let store = SettingsStore(folder: folder.path)
        for time in [500, 100, 900, 300, 700, 200, 800] {
            folder.write("garbage", to: "settings.conf")
            _ = store.load(now: time)
        }
        #expect(folder.names() == [500, 700, 800, 900, 300].map { "settings.conf.bad-\($0)" }.sorted())
    }

    @Test func theStateFolderComesFromTheFlagThenTheEnvironmentThenTheDefault() {
        unsetenv(StateFolder.environmentVariable)
        #expect(StateFolder.resolve(flag: nil) == "/var/lib/reflex")
        setenv(StateFolder.environmentVariable, "/data/reflex", 1)
        defer { unsetenv(StateFolder.environmentVariable) }
        #expect(StateFolder.resolve(flag: nil) == "/data/reflex")
        #expect(StateFolder.resolve(flag: "/mnt/state") == "/mnt/state")
    }
}
