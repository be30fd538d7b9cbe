import ReflexCore
import Testing

/// A sensor mounted upside down (the Raspberry Pi HQ Camera's and Camera Module 3's) is read
/// out flipped both ways; a quarter turn is left to the panel's rotation.
@Suite struct SensorMountingTests {
    @Test func aHalfTurnIsUndoneByBothFlips() {
        #expect(SensorMounting(rotation: 180) == .flipBoth)
        #expect(SensorMounting(rotation: -180) == .flipBoth)
        #expect(SensorMounting(rotation: 540) == .flipBoth)
    }

    @Test func uprightNeedsNothingAndAQuarterTurnCannotBeFlipped() {
        #expect(SensorMounting(rotation: 0) == .upright)
        #expect(SensorMounting(rotation: 360) == .upright)
        #expect(SensorMounting(rotation: 90) == .cannotUndo(degrees: 90))
        #expect(SensorMounting(rotation: -90) == .cannotUndo(degrees: 270))
    }
}
