import Foundation
import ReflexTestSupport
import Testing
@testable import ReflexBench

/// `reflex bench soak --card DIR`: the soak reads back and clears only what it wrote, never
/// the photographer's own files on a card given to it, and never fills such a card.
@Suite("Soak card")
struct SoakCardTests {
    @Test func aGivenCardKeepsTheFilesItHadAndLosesOnlyThoseTheRunWrote() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("DCIM/100REFLX"), withIntermediateDirectories: true)
        folder.write("the photographer's", to: "DCIM/100REFLX/RFLX0001.JPG")
        let card = try SoakCard(folder: folder.path, megabytes: 16)
        defer { card.finish() }
        #expect(!card.mounted, "a folder given is never mounted over")
        #expect(card.fill().contains("not filled"), "a folder given is somebody's disk")

        folder.write("the run's", to: "DCIM/100REFLX/RFLX0002.JPG")
        folder.write("the run's", to: "DCIM/100REFLX/RFLX0003.DNG")
        folder.write("still being written", to: "DCIM/100REFLX/.RFLX0004.JPG.tmp")
        var read: [String] = []
        let count = card.checkAndClear { path in
            read.append(String(path.split(separator: "/").last ?? ""))
            return path.hasSuffix(".DNG") ? "LibRaw refused it" : nil
        }
        #expect(count == 2)
        #expect(read == ["RFLX0002.JPG", "RFLX0003.DNG"])
        #expect(card.checked == ["JPG": 1])
        #expect(card.refused == ["RFLX0003.DNG: LibRaw refused it"])
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("DCIM/100REFLX"))) ?? []
        #expect(left.sorted() == [".RFLX0004.JPG.tmp", "RFLX0001.JPG"], "the card's own file and the one in progress stay")
    }
}
