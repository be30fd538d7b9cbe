import Foundation
import ReflexCore
import ReflexStorage
import ReflexTestSupport
import Testing

/// The card as review lists it: what the camera and another camera wrote, without what a save
/// left unfinished, a read-only file protecting its item.
@Suite struct CardCatalogTests {
    @Test func theCardsItemsWithoutLeftoversAndWithTheirProtection() throws {
        let card = TemporaryFolder()
        for (folder, names) in [("100REFLX", ["RFLX0001.JPG", "RFLX0002.DNG", "RFLX0002.JPG", ".RFLX0003.JPG.tmp"]),
                                ("101CANON", ["IMG_0005.JPG"]), ("MISC", ["RFLX0009.JPG"])] {
            try FileManager.default.createDirectory(atPath: card.path + "/DCIM/" + folder, withIntermediateDirectories: true)
            for name in names { _ = try card.write([0xFF, 0xD8, 0xFF, 0xD9], to: "DCIM/\(folder)/\(name)") }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: card.path + "/DCIM/100REFLX/RFLX0001.JPG")
        let items = CardCatalog.items(onCardAt: card.path)
        try #require(items.map(\.name) == ["101CANON/IMG_0005", "100REFLX/RFLX0002", "100REFLX/RFLX0001"])
        #expect(items.map(\.isProtected) == [false, false, true])
        #expect(items[1].files.map(\.bytes) == [4, 4])
        #expect(CardCatalog.items(onCardAt: card.path + "/nothing").isEmpty)
    }
}
