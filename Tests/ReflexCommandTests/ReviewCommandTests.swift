import Foundation
import ReflexTestSupport
import Testing

/// `reflex review --list`: what review shows of a card, for scripts (issue 34).
@Suite("reflex review", .tags(.externalTool))
struct ReviewCommandTests {
    @Test func listsTheCardsItemsAsTextAndAsJSON() throws {
        let card = TemporaryFolder()
        for (folder, names) in [("100REFLX", ["RFLX0001.JPG", "RFLX0002.DNG", "RFLX0002.JPG"]), ("101CANON", ["IMG_0005.MP4"])] {
            try FileManager.default.createDirectory(atPath: card.path + "/DCIM/" + folder, withIntermediateDirectories: true)
            for name in names { _ = try card.write([1, 2, 3], to: "DCIM/\(folder)/\(name)") }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: card.path + "/DCIM/100REFLX/RFLX0001.JPG")

        let text = try ReflexRun(["review", "--list", "-o", card.path])
        #expect(text.status == 0, "\(text.errors)")
        let lines = text.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(text.output)")
        #expect(lines[0].hasPrefix("101CANON/IMG_0005  MOVIE  ") && lines[0].hasSuffix("  IMG_0005.MP4"))
        #expect(lines[1].hasPrefix("100REFLX/RFLX0002  RAW+JPEG  ") && lines[1].hasSuffix("  RFLX0002.DNG RFLX0002.JPG"))
        #expect(lines[2].hasSuffix("  RFLX0001.JPG  protected"))

        let json = try ReflexRun(["review", "--list", "--json", "-o", card.path])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(items.map { $0["number"] as? String } == ["101CANON/IMG_0005", "100REFLX/RFLX0002", "100REFLX/RFLX0001"])
        #expect(items.map { $0["protected"] as? Bool } == [false, false, true])
        try #require(items.count == 3, "\(json.output)")
        let files = try #require(items[1]["files"] as? [[String: Any]])
        #expect(files.map { $0["kind"] as? String } == ["raw", "jpeg"] && files.map { $0["bytes"] as? Int } == [3, 3])

        let bare = try ReflexRun(["review", "-o", card.path])
        #expect(bare.status != 0 && bare.errors.contains("reflex review --list"))
    }

    @Test func deletesAndProtectsAnItemAsReviewDoes() throws {
        let card = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: card.path + "/DCIM/100REFLX", withIntermediateDirectories: true)
        for name in ["RFLX0001.JPG", "RFLX0002.DNG", "RFLX0002.JPG"] { _ = try card.write([1, 2, 3], to: "DCIM/100REFLX/\(name)") }

        let protect = try ReflexRun(["review", "--protect", "100REFLX/RFLX0002", "-o", card.path])
        #expect(protect.status == 0 && protect.output.contains("protected 100REFLX/RFLX0002"), "\(protect.errors)")
        let refused = try ReflexRun(["review", "--delete", "100REFLX/RFLX0002", "-o", card.path])
        #expect(refused.status != 0 && refused.errors.contains("protected"), "\(refused.output + refused.errors)")
        _ = try ReflexRun(["review", "--unprotect", "100reflx/rflx0002", "-o", card.path])
        let deleted = try ReflexRun(["review", "--delete", "100REFLX/RFLX0002", "-o", card.path])
        #expect(deleted.status == 0 && deleted.output.contains("deleted 100REFLX/RFLX0002: RFLX0002.DNG RFLX0002.JPG"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: card.path + "/DCIM/100REFLX") == ["RFLX0001.JPG"])
        let missing = try ReflexRun(["review", "--delete", "100REFLX/RFLX0002", "-o", card.path])
        #expect(missing.status != 0 && missing.errors.contains("no item 100REFLX/RFLX0002"))
    }
}
