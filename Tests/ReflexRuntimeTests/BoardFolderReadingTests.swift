import Foundation
import ReflexCore
import ReflexRuntime
import Testing

/// A board folder's files read as the camera reads them at start: each file's value, and for
/// a missing or broken one the fallback with a log line that says which and why.
@Suite("Board folder reading")
struct BoardFolderReadingTests {
    static func folder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "reflex-board-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
        return path
    }

    @Test func aFlagNamesTheFolderBeforeAnythingElse() {
        #expect(BoardFolder.resolve(flag: "/somewhere/board") == "/somewhere/board")
    }

    @Test func aBoardsOwnFileIsReadAndSaysWhereFrom() throws {
        let folder = try Self.folder(["video.conf": "size = 720p\nmicrophone = none\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (video, note) = BoardFolder.video(in: folder)
        #expect(video.format == VideoFormat(named: "720p") && video.microphone == nil, "\(video)")
        #expect(note == "board: movies' size and microphone from \(folder)/video.conf")
    }

    @Test func aMissingFileIsTheDefaultAndTheLogNamesIt() throws {
        let folder = try Self.folder([:])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (controls, note) = BoardFolder.controls(in: folder)
        #expect(controls == BoardControls())
        #expect(note == "board: no \(folder)/controls.conf; the usual keys and two encoders")
    }

    @Test func aBrokenFileIsTheDefaultAndTheLogSaysWhy() throws {
        let folder = try Self.folder(["controls.conf": "no equals sign here\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (controls, note) = BoardFolder.controls(in: folder)
        #expect(controls == BoardControls())
        #expect(note.hasPrefix("board: \(folder)/controls.conf is not usable ("), "\(note)")
    }
}
