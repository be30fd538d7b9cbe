import ReflexCore
import Testing

/// Several sensors as one camera: which lens a zoom factor picks, and the board's lens files.
@Suite("Lenses")
struct LensSetTests {
    static let trio = LensSet([
        LensDescription(role: .tele, camera: "Sensor B"),
        LensDescription(role: .ultraWide, camera: "Sensor A"),
        LensDescription(role: .wide, camera: "/dev/video0"),
    ])

    @Test func theLensesAreOrderedFromTheWidest() {
        #expect(Self.trio.lenses.map(\.role) == [.ultraWide, .wide, .tele])
        #expect(Self.trio.lenses.map(\.label) == ["0.5x", "1x", "3x"])
        #expect(Self.trio.offersChoice)
        #expect(!LensSet([LensDescription(role: .wide, camera: "x")]).offersChoice, "one lens: no switcher")
    }

    @Test func theZoomPicksTheLongestLensWhoseSwitchOverItHasReached() {
        #expect(Self.trio.lens(forZoom: 0.5) == 0)
        #expect(Self.trio.lens(forZoom: 0.99) == 0)
        #expect(Self.trio.lens(forZoom: 1.0) == 1)
        #expect(Self.trio.lens(forZoom: 2.9) == 1)
        #expect(Self.trio.lens(forZoom: 2.9999999) == 2, "a glide landing a hair short")
        #expect(Self.trio.lens(forZoom: 12) == 2)
        #expect(Self.trio.lens(forZoom: 0.3) == 0, "below the widest: the widest")
    }

    @Test func aLaterSwitchOverKeepsTheWideCroppingUntilThen() {
        let lenses = LensSet([LensDescription(role: .wide, camera: "a"),
                              LensDescription(role: .tele, camera: "b", magnification: 3, switchOver: 3.5)])
        #expect(lenses.lens(forZoom: 3.2) == 0)
        #expect(lenses.digitalZoom(3.2, lens: 0) == 3.2)
        #expect(lenses.lens(forZoom: 3.5) == 1)
        #expect(abs(lenses.digitalZoom(3.5, lens: 1) - 3.5 / 3) < 1e-12, "the same field of view either side")
    }

    @Test func theISPCropsWhatTheLensDoesNot() {
        #expect(Self.trio.digitalZoom(0.5, lens: 0) == 1)
        #expect(Self.trio.digitalZoom(0.8, lens: 0) == 1.6)
        #expect(Self.trio.digitalZoom(2, lens: 1) == 2)
        #expect(Self.trio.digitalZoom(6, lens: 2) == 2)
    }

    @Test func theZoomReachesFromTheWidestToTheLongestCropped() {
        #expect(Self.trio.zoomRange == 0.5...8)
        let long = LensSet([LensDescription(role: .wide, camera: "a"), LensDescription(role: .tele, camera: "b", magnification: 5)])
        #expect(long.zoomRange == 1...10)
        #expect(LensSet([]).zoomRange == 1...8)
    }

    @Test func theNextLensIsKnownBeforeTheZoomGetsThere() {
        #expect(Self.trio.neighbourSoon(forZoom: 2.5) == 2, "near the tele's switch-over")
        #expect(Self.trio.neighbourSoon(forZoom: 1.1) == 0, "just past the wide's, zooming out reaches the ultra-wide")
        #expect(Self.trio.neighbourSoon(forZoom: 1.8) == nil)
    }

    @Test func aLensFileNamesItsCameraAndPlace() throws {
        let lens = try LensDescription.parse(role: .tele, """
            # the 3x module
            camera = imx708 10-001a
            magnification = 3
            switch-over = 3.2
            f-number = 2.8
            """).get()
        #expect(lens == LensDescription(role: .tele, camera: "imx708 10-001a", magnification: 3, switchOver: 3.2))
        let usual = try LensDescription.parse(role: .ultraWide, "camera = Sensor A\n").get()
        #expect(usual.magnification == 0.5 && usual.switchOver == 0.5)
    }

    @Test func aLensFileWithoutItsCameraOrWithASwitchOverBeforeItsFieldIsRefused() {
        #expect(throws: KeyValueText.ConfigurationProblem.self) { try LensDescription.parse(role: .wide, "magnification = 1\n").get() }
        #expect(throws: KeyValueText.ConfigurationProblem.self) {
            try LensDescription.parse(role: .tele, "camera = b\nmagnification = 3\nswitch-over = 2\n").get()
        }
        #expect(throws: KeyValueText.ConfigurationProblem.self) { try LensDescription.parse(role: .tele, "camera = b\nmagnification = 0\n").get() }
    }

    @Test func aLensButtonGlidesTheZoomInStops() {
        var ramp = ZoomRamp(range: 0.5...8, factor: 1)
        ramp.glide(to: 3, at: 10)
        #expect(ramp.isRamping)
        #expect(ramp.factor(at: 10) == 1)
        let halfway = ramp.factor(at: 10 + ZoomRamp.glideSeconds / 2)
        #expect(abs(halfway - 3.0.squareRoot()) < 0.01, "half the stops at half the time")
        #expect(ramp.factor(at: 10 + ZoomRamp.glideSeconds) == 3)
        ramp.settle(at: 11)
        #expect(!ramp.isRamping && ramp.factor(at: 12) == 3)
        ramp.glide(to: 0.2, at: 20)
        #expect(ramp.factor(at: 21) == 0.5, "within the range")
        #expect(Formatting.zoomLabel(2.5) == "2.5x" && Formatting.zoomLabel(1) == "1x")
    }
}
