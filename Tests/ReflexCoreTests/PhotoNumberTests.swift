import Testing
@testable import ReflexCore

@Suite("Photo numbers (DCF)")
struct PhotoNumberTests {
    @Test func namesFollowDCF() {
        let number = PhotoNumber(folder: 100, file: 42)!
        #expect(number.folderName == "100REFLX")
        #expect(number.fileStem == "RFLX0042")
        #expect(PhotoNumber.folder(named: "100REFLX") == 100)
        #expect(PhotoNumber.folder(named: "100CANON") == nil)
        #expect(PhotoNumber.folder(named: "099REFLX") == nil)
        #expect(PhotoNumber.file(named: "RFLX0042.JPG") == 42)
        #expect(PhotoNumber.file(named: "rflx0042.dng") == 42)
        #expect(PhotoNumber.file(named: ".RFLX0042.JPG.tmp-12-1") == nil)
        #expect(PhotoNumber.file(named: "RFLX0000.JPG") == nil)
        #expect(PhotoNumber.file(named: "IMG_0042.JPG") == nil)
        #expect(PhotoNumber.file(named: "RFLX00x2.JPG") == nil)
    }

    @Test func numbersOnlyGoUp() {
        #expect(PhotoNumber(folder: 100, file: 9999)!.next == PhotoNumber(folder: 101, file: 1))
        #expect(PhotoNumber(folder: 999, file: 9999)!.next == nil)
        #expect(PhotoNumber(folder: 101, file: 1)! > PhotoNumber(folder: 100, file: 9999)!)
        #expect(PhotoNumber(ordinal: PhotoNumber(folder: 123, file: 456)!.ordinal) == PhotoNumber(folder: 123, file: 456))
    }

    @Test func theNextNumberIsAfterTheCounterAndTheCard() {
        let counter = PhotoNumber(folder: 100, file: 7)!, card = PhotoNumber(folder: 100, file: 30)!
        #expect(PhotoNumber.next(afterCounter: nil, highestOnCard: nil) == .first)
        #expect(PhotoNumber.next(afterCounter: counter, highestOnCard: card) == PhotoNumber(folder: 100, file: 31))
        // A card emptied on a computer: the counter keeps numbers from being used again.
        #expect(PhotoNumber.next(afterCounter: card, highestOnCard: nil) == PhotoNumber(folder: 100, file: 31))
        #expect(PhotoNumber.next(afterCounter: PhotoNumber(folder: 999, file: 9999), highestOnCard: nil) == nil)
    }
}
