import ReflexCore
import Testing

/// What review shows of a card's listing: DCF names of any camera, pairs as one item, newest
/// first across folders (issue 34).
@Suite struct ReviewCatalogTests {
    @Test func dcfNamesOfAnyCameraAndNothingElse() {
        #expect(DCFName.folderNumber("100REFLX") == 100 && DCFName.folderNumber("101CANON") == 101)
        #expect(DCFName.folderNumber("999_PANA") == 999 && DCFName.folderNumber("105nikon") == 105)
        for name in ["099REFLX", "100REFLX2", "10AREFLX", "100REF-X", "MISC", ".100REFL"] {
            #expect(DCFName.folderNumber(name) == nil, "\(name)")
        }
        #expect(DCFName.file("RFLX0042.JPG").map { $0 == ("RFLX0042", 42, "JPG") } == true)
        #expect(DCFName.file("img_0815.cr2").map { $0 == ("IMG_0815", 815, "CR2") } == true)
        for name in ["RFLX0000.JPG", "RFLX042.JPG", "RFLX00042.JPG", ".RFLX0042.JPG", "RFLX0042", "RFLX0042.", "R-LX0042.JPG"] {
            #expect(DCFName.file(name) == nil, "\(name)")
        }
    }

    static func file(_ name: String, modified: Int64 = 1_000, readOnly: Bool = false)
        -> (name: String, bytes: Int64, modified: Int64, readOnly: Bool) {
        (name, 1_000, modified, readOnly)
    }

    @Test func pairsAreOneItemNewestFirstAcrossFolders() throws {
        let items = ReviewCatalog.items([
            .init(folder: "100REFLX", files: [Self.file("RFLX0001.JPG"), Self.file("RFLX0002.DNG"), Self.file("RFLX0002.JPG"),
                                              Self.file("RFLX0003.MP4", modified: 3_000), Self.file("RFLX0003.THM"),
                                              Self.file("RFLX0004.XMP"), Self.file("notes.txt")]),
            .init(folder: "101CANON", files: [Self.file("IMG_0007.CR2"), Self.file("IMG_0007.JPG", readOnly: true)]),
            .init(folder: "MISC", files: [Self.file("RFLX0009.JPG")]),
        ])
        try #require(items.map(\.name) == ["101CANON/IMG_0007", "100REFLX/RFLX0003", "100REFLX/RFLX0002", "100REFLX/RFLX0001"])
        #expect(items.map(\.format) == ["RAW+JPEG", "MOVIE", "RAW+JPEG", "JPEG"])
        #expect(items.map(\.isProtected) == [true, false, false, false])
        #expect(items[1].files.map(\.name) == ["RFLX0003.MP4", "RFLX0003.THM"] && items[1].modified == 3_000)
    }

    @Test func aFolderOfOneNumberTwiceIsOrderedByName() {
        let items = ReviewCatalog.items([.init(folder: "100CANON", files: [Self.file("IMG_0001.JPG")]),
                                         .init(folder: "100REFLX", files: [Self.file("RFLX0001.JPG")])])
        #expect(items.map(\.name) == ["100REFLX/RFLX0001", "100CANON/IMG_0001"])
    }
}
