import ReflexCore
import ReflexISP
import Testing

/// Boxes from overlapping regions become one box a person.
@Suite("Detection merge")
struct DetectionMergeTests {
    static func found(_ box: FractionalBox, in region: FractionalBox, _ confidence: Double = 0.8) -> RegionDetection {
        RegionDetection(detection: PersonDetection(box: box, confidence: confidence), region: region)
    }

    static let left = FractionalBox(x: 0, y: 0, width: 0.3, height: 0.5)
    static let middle = FractionalBox(x: 0.2, y: 0, width: 0.3, height: 0.5)

    @Test func aPersonAcrossASquaresEdgeIsOneBox() throws {
        // Standing across the left square's right edge: cut there, whole in the middle square.
        let person = FractionalBox(x: 0.27, y: 0.1, width: 0.05, height: 0.2)
        let cut = FractionalBox(x: 0.27, y: 0.1, width: 0.03, height: 0.2)
        #expect(Self.found(cut, in: Self.left).isCut && !Self.found(person, in: Self.middle).isCut)
        let merged = DetectionMerge.merge([Self.found(cut, in: Self.left, 0.9), Self.found(person, in: Self.middle, 0.7)])
        try #require(merged.count == 1)
        #expect(merged[0].box == person, "the box that saw the whole person")
        #expect(merged[0].confidence == 0.9, "with the best confidence any box had")
    }

    @Test func theSamePersonTwiceIsOnceAndTwoPeopleStayTwo() {
        let a = FractionalBox(x: 0.22, y: 0.1, width: 0.05, height: 0.2), nearlyA = FractionalBox(x: 0.225, y: 0.11, width: 0.05, height: 0.2)
        let b = FractionalBox(x: 0.3, y: 0.12, width: 0.05, height: 0.2)
        let merged = DetectionMerge.merge([Self.found(a, in: Self.middle, 0.6), Self.found(nearlyA, in: .init(x: 0, y: 0, width: 1, height: 1), 0.8),
                                           Self.found(b, in: Self.middle, 0.7)])
        #expect(merged.count == 2)
        #expect(merged.map(\.confidence) == [0.8, 0.7], "most confident first")
        // A child in front of an adult, neither cut: two people.
        let adult = FractionalBox(x: 0.3, y: 0.05, width: 0.1, height: 0.4), child = FractionalBox(x: 0.32, y: 0.25, width: 0.05, height: 0.18)
        #expect(DetectionMerge.merge([Self.found(adult, in: Self.middle), Self.found(child, in: Self.middle)]).count == 2)
    }

    @Test func twoPartsOfAPersonNoSquareHeldWholeAreTheirUnion() throws {
        let right = FractionalBox(x: 0.3, y: 0, width: 0.3, height: 0.5)
        let leftPart = FractionalBox(x: 0.25, y: 0.1, width: 0.05, height: 0.3), rightPart = FractionalBox(x: 0.29, y: 0.1, width: 0.06, height: 0.3)
        let merged = DetectionMerge.merge([Self.found(leftPart, in: Self.left), Self.found(rightPart, in: right, 0.6)])
        try #require(merged.count == 1)
        #expect(abs(merged[0].box.x - 0.25) < 1e-12 && abs(merged[0].box.width - 0.1) < 1e-12)
    }

    @Test func aBoxAtTheFramesOwnEdgeIsNotCut() {
        #expect(!Self.found(FractionalBox(x: 0, y: 0.1, width: 0.05, height: 0.2), in: Self.left).isCut)
        #expect(Self.found(FractionalBox(x: 0.202, y: 0.1, width: 0.05, height: 0.2), in: Self.middle).isCut)
    }
}
