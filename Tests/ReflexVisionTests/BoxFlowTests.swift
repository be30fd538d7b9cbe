import ReflexCore
import ReflexVision
import Testing

/// A textured patch moved between two grey pictures: the box follows it.
@Suite("Box flow")
struct BoxFlowTests {
    /// A 160x120 picture, flat grey but for a textured 30x40 patch at `x`, `y`.
    static func picture(patchAt x: Int, _ y: Int) -> [UInt8] {
        var grey = [UInt8](repeating: 128, count: 160 * 120)
        for row in 0..<40 {
            for column in 0..<30 {
                // A pattern with corners in both directions.
                let value = ((row / 5 + column / 5) % 2 == 0 ? 40 : 220) &+ UInt8((row * 7 + column * 13) % 23)
                grey[(y + row) * 160 + x + column] = value
            }
        }
        return grey
    }

    @Test func theBoxMovesWithItsContents() throws {
        let before = Self.picture(patchAt: 50, 40), after = Self.picture(patchAt: 56, 37)
        let box = FractionalBox(x: 50.0 / 160, y: 40.0 / 120, width: 30.0 / 160, height: 40.0 / 120)
        let followed = try #require(BoxFlow().follow(box, from: before, to: after, width: 160, height: 120))
        #expect(abs(followed.x * 160 - 56) < 0.5 && abs(followed.y * 120 - 37) < 0.5, "\(followed.x * 160), \(followed.y * 120)")
        #expect(followed.width == box.width && followed.height == box.height)
    }

    @Test func aBoxWithNothingToFollowGivesNoAnswer() {
        let flat = [UInt8](repeating: 128, count: 160 * 120)
        let box = FractionalBox(x: 0.3, y: 0.3, width: 0.2, height: 0.3)
        #expect(BoxFlow().follow(box, from: flat, to: flat, width: 160, height: 120) == nil)
    }
}
