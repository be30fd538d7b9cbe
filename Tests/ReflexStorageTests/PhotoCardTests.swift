import ReflexTestSupport
import Foundation
import ReflexCore
import Testing
@testable import ReflexStorage

/// Photos on the card in the DCF layout, numbered after the counter and the card.
@Suite struct PhotoCardTests {
    @Test func aPairSharesItsNumberInTheDCFFolder() throws {
        let folder = TemporaryFolder()
        let card = PhotoCard(root: folder.path)
        let number = PhotoNumber(folder: 100, file: 1)!
        let paths = try card.save([("DNG", [1, 2, 3]), ("JPG", [4, 5])], as: number)
        try #require(paths == [folder.path + "/DCIM/100REFLX/RFLX0001.DNG", folder.path + "/DCIM/100REFLX/RFLX0001.JPG"])
        #expect(FileManager.default.contents(atPath: paths[0]) == Data([1, 2, 3]))
        #expect(card.highestNumber() == number)
        // Never over a file already there.
        #expect(throws: (any Error).self) { try card.save([("JPG", [9])], as: number) }
        #expect(FileManager.default.contents(atPath: paths[1]) == Data([4, 5]))
    }

    @Test func theNextNumberFollowsTheCardAndTheCounter() throws {
        let card = TemporaryFolder(), state = TemporaryFolder()
        let photos = PhotoCard(root: card.path), counter = PhotoCounter(folder: state.path)
        #expect(counter.next(on: photos) == .first)
        // Another session's photos, in two folders, and a stranger's file.
        for name in ["100REFLX/RFLX0005.JPG", "101REFLX/RFLX0002.DNG", "101REFLX/IMG_9999.JPG", "102CANON/RFLX0009.JPG"] {
            let path = card.path + "/DCIM/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data([0]))
        }
        #expect(photos.highestNumber() == PhotoNumber(folder: 101, file: 2))
        #expect(counter.next(on: photos) == PhotoNumber(folder: 101, file: 3))
        try counter.save(PhotoNumber(folder: 105, file: 9999)!)
        #expect(counter.load() == PhotoNumber(folder: 105, file: 9999))
        #expect(counter.next(on: photos) == PhotoNumber(folder: 106, file: 1))
    }

    @Test func leftoversOfAKilledWriterAreRemoved() throws {
        let card = TemporaryFolder()
        let folder = card.path + "/DCIM/100REFLX"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A pid that cannot be running (above pid_max), and this process's own.
        _ = FileManager.default.createFile(atPath: folder + "/.RFLX0001.JPG.tmp-4194999-1", contents: Data([0]))
        _ = FileManager.default.createFile(atPath: folder + "/.RFLX0002.JPG.tmp-\(getpid())-1", contents: Data([0]))
        #expect(PhotoCard(root: card.path).removeLeftovers().removed == 1)
        #expect(FileManager.default.fileExists(atPath: folder + "/.RFLX0002.JPG.tmp-\(getpid())-1"))
    }
}
