import Foundation
import ReflexCore
import ReflexStorage
import ReflexSystem
import ReflexTestSupport
import Testing

/// Delete and protect in review (issue 34): both files of a pair go, a cut at any step leaves
/// the whole pair or none once the card's check has run, a protected item is refused, and a
/// deleted number is never given again.
@Suite struct CardEraserTests {
    /// A card with a RAW+JPEG pair (RFLX0002) beside a JPEG (RFLX0001) and another camera's file.
    static func card() throws -> TemporaryFolder {
        let card = TemporaryFolder()
        for (folder, names) in [("100REFLX", ["RFLX0001.JPG", "RFLX0002.DNG", "RFLX0002.JPG"]), ("101CANON", ["IMG_0005.JPG"])] {
            try FileManager.default.createDirectory(atPath: card.path + "/DCIM/" + folder, withIntermediateDirectories: true)
            for name in names { _ = try card.write([1, 2, 3], to: "DCIM/\(folder)/\(name)") }
        }
        return card
    }

    static func item(_ name: String, on card: TemporaryFolder) throws -> ReviewItem {
        try #require(CardCatalog.items(onCardAt: card.path).first { $0.name == name })
    }

    @Test func deleteRemovesBothFilesOfAPair() throws {
        let card = try Self.card()
        try CardEraser.delete(try Self.item("100REFLX/RFLX0002", on: card), onCardAt: card.path)
        #expect(CardCatalog.items(onCardAt: card.path).map(\.name) == ["101CANON/IMG_0005", "100REFLX/RFLX0001"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: card.path + "/DCIM/100REFLX") == ["RFLX0001.JPG"])
    }

    /// A computer over USB deletes one object, a pair's JPEG: its DNG stays, and the card's
    /// check at the next start leaves it (nothing was marked that would take the stem).
    @Test func oneFileOfAPairGoesAndTheOtherStays() throws {
        let card = try Self.card()
        let pair = try Self.item("100REFLX/RFLX0002", on: card)
        let jpeg = try #require(pair.files.first { $0.kind == .jpeg })
        try CardEraser.deleteFile(jpeg, of: pair, onCardAt: card.path)
        PhotoCard(root: card.path).removeLeftovers()
        let files = try FileManager.default.contentsOfDirectory(atPath: card.path + "/DCIM/100REFLX").sorted()
        #expect(files == ["RFLX0001.JPG", "RFLX0002.DNG"])
        let single = try Self.item("100REFLX/RFLX0001", on: card)
        var protected = single.files[0]
        protected.readOnly = true
        #expect(throws: SystemError.self, "a protected file is refused") {
            try CardEraser.deleteFile(protected, of: single, onCardAt: card.path)
        }
        #expect(FileManager.default.fileExists(atPath: card.file("DCIM/100REFLX/RFLX0001.JPG")))
    }

    /// The delete stopped after each of its steps (a file marked, the other, the folder
    /// synced, a file removed, the other), as a kill would stop it: once the card's check at
    /// the next start has run, the pair is gone, never half there, and the rest untouched.
    @Test func aDeleteCutAtAnyStepLeavesThePairGoneAfterTheCheck() throws {
        for cut in 1...6 {
            let card = try Self.card()
            let pair = try Self.item("100REFLX/RFLX0002", on: card)
            var steps = 0
            try CardEraser.delete(pair, onCardAt: card.path) { step in
                steps = step
                return step < cut
            }
            PhotoCard(root: card.path).removeLeftovers()
            let files = try FileManager.default.contentsOfDirectory(atPath: card.path + "/DCIM/100REFLX").sorted()
            #expect(files == ["RFLX0001.JPG"], "cut after step \(cut) of \(steps): \(files)")
            #expect(CardCatalog.items(onCardAt: card.path).map(\.name) == ["101CANON/IMG_0005", "100REFLX/RFLX0001"])
        }
    }

    @Test func aProtectedItemIsRefusedUntilUnprotected() throws {
        let card = try Self.card()
        try CardProtection.setProtected(try Self.item("100REFLX/RFLX0002", on: card), true, onCardAt: card.path)
        let protected = try Self.item("100REFLX/RFLX0002", on: card)
        #expect(protected.isProtected && protected.files.allSatisfy(\.readOnly))
        #expect(throws: SystemError.self) { try CardEraser.delete(protected, onCardAt: card.path) }
        #expect(CardCatalog.items(onCardAt: card.path).count == 3)
        try CardProtection.setProtected(protected, false, onCardAt: card.path)
        let unprotected = try Self.item("100REFLX/RFLX0002", on: card)
        #expect(!unprotected.isProtected)
        try CardEraser.delete(unprotected, onCardAt: card.path)
        #expect(CardCatalog.items(onCardAt: card.path).count == 2)
    }

    @Test func aDeletedNumberIsNeverGivenAgain() throws {
        let card = try Self.card(), state = TemporaryFolder()
        let numbering = CardNumbering(card: PhotoCard(root: card.path), counter: PhotoCounter(folder: state.path))
        let next = try numbering.next()
        _ = try PhotoCard(root: card.path).save([(extension: "JPG", bytes: [1])], as: next)
        try CardEraser.delete(try Self.item("100REFLX/" + next.fileStem, on: card), onCardAt: card.path)
        #expect(try numbering.next() > next)
    }
}
