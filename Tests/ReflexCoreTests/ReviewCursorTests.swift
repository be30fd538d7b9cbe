import ReflexCore
import Testing

/// Going through the card in review: newest first, round at the ends, the item after a delete.
@Suite struct ReviewCursorTests {
    static func items(_ count: Int) -> [ReviewItem] {
        (1...count).reversed().map { number in
            ReviewItem(folder: "100REFLX", folderNumber: 100, stem: "RFLX000\(number)", number: number,
                       files: [.init(name: "RFLX000\(number).JPG", kind: .jpeg, bytes: 1, modified: 0, readOnly: false)])
        }
    }

    @Test func roundFromTheOldestToTheNewest() throws {
        var cursor = try #require(ReviewCursor(items: Self.items(4)))
        #expect(cursor.current.stem == "RFLX0004")
        cursor.move(1)
        #expect(cursor.current.stem == "RFLX0003" && cursor.neighbours.map(\.stem) == ["RFLX0004", "RFLX0002"])
        cursor.move(-2)
        #expect(cursor.current.stem == "RFLX0001")
        cursor.move(1)
        #expect(cursor.current.stem == "RFLX0004")
        #expect(ReviewCursor(items: []) == nil)
    }

    @Test func afterADeleteTheNextOlderItemIsShown() throws {
        var cursor = try #require(ReviewCursor(items: Self.items(3)))
        cursor.move(1)
        let afterDelete = cursor.refresh(Self.items(3).filter { $0.stem != "RFLX0002" })
        #expect(afterDelete && cursor.current.stem == "RFLX0001")
        let oneLeft = cursor.refresh(Self.items(1))
        #expect(oneLeft && cursor.current.stem == "RFLX0001")
        let none = cursor.refresh([])
        #expect(!none)
    }

    @Test func anItemIsNumberedAsCamerasShowIt() {
        let item = ReviewItem(folder: "101REFLX", folderNumber: 101, stem: "RFLX0042", number: 42, files: [])
        #expect(item.shownNumber == "101-0042")
        let long = ReviewItem(folder: "100REFLX", folderNumber: 100, stem: "RFLX9999", number: 9999, files: [])
        #expect(long.shownNumber == "100-9999")
    }
}
