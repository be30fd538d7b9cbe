import ReflexCore
import ReflexISP
import Testing

/// Where the detector looks: around the subject and a newcomer, and the sweep's squares.
@Suite("Detection plan")
struct DetectionPlanTests {
    static let wide = 16.0 / 9

    @Test func aSmallSubjectIsLookedForInASquareAroundIt() throws {
        let subject = FractionalBox(centreX: 0.6, centreY: 0.5, width: 0.02, height: 0.06)
        let region = try #require(DetectionPlan.crop(around: subject, aspect: Self.wide))
        #expect(abs(region.height - 0.3) < 1e-12, "never smaller than 0.3 of the frame")
        #expect(abs(region.width * 16 / 9 - region.height) < 1e-12, "square in pixels")
        #expect(abs(region.centreX - 0.6) < 1e-12 && abs(region.centreY - 0.5) < 1e-12)
        let larger = try #require(DetectionPlan.crop(around: FractionalBox(centreX: 0.5, centreY: 0.5, width: 0.1, height: 0.2), aspect: 1))
        #expect(abs(larger.height - 0.6) < 1e-12, "three times the subject's height")
        #expect(DetectionPlan.crop(around: FractionalBox(x: 0.4, y: 0.3, width: 0.2, height: 0.5), aspect: 1) == nil,
                "a large subject is seen in the whole frame")
    }

    @Test func theCropStaysInsideTheFrame() throws {
        let corner = FractionalBox(centreX: 0.99, centreY: 0.02, width: 0.02, height: 0.05)
        let region = try #require(DetectionPlan.crop(around: corner, aspect: 4.0 / 3))
        #expect(region.x >= 0 && region.x + region.width <= 1 + 1e-12)
        #expect(region.y >= 0 && region.y + region.height <= 1 + 1e-12)
    }

    @Test func searchingSweepsEverySquareWithinTenDetections() {
        var plan = DetectionPlan()
        let sweep = DetectionTiles.sweep(aspect: Self.wide)
        var seen: [FractionalBox] = []
        for _ in 0..<((sweep.count + 1) / DetectionPlan.regionsPerDetection) {
            let regions = plan.regions(subject: nil, newcomers: [], aspect: Self.wide)
            #expect(regions.count == DetectionPlan.regionsPerDetection)
            seen += regions
        }
        #expect(sweep.allSatisfy { seen.contains($0) }, "every square of the \(sweep.count) within one second at 10 a second")
        #expect(sweep.count <= 2 * 10, "so the sweep takes a second at most")
    }

    @Test func followingLooksAtTheSubjectEveryTimeAndSweepsOnSlower() throws {
        var plan = DetectionPlan()
        let subject = FractionalBox(centreX: 0.3, centreY: 0.6, width: 0.03, height: 0.08)
        let crop = try #require(DetectionPlan.crop(around: subject, aspect: Self.wide))
        var squares = Set<Int>()
        for _ in 0..<6 {
            let regions = plan.regions(subject: subject, newcomers: [], aspect: Self.wide)
            #expect(regions.first == crop, "the subject first")
            #expect(regions.count == 2)
            squares.insert(plan.sweepPosition)
        }
        #expect(squares.count == 6, "one new square of the sweep each time")
        let large = FractionalBox(x: 0.3, y: 0.1, width: 0.2, height: 0.7)
        #expect(plan.regions(subject: large, newcomers: [], aspect: Self.wide).first == Framing.wholePicture)
    }

    @Test func aNewcomerIsLookedAtAgainAtOnce() throws {
        var plan = DetectionPlan()
        let newcomer = FractionalBox(centreX: 0.8, centreY: 0.3, width: 0.02, height: 0.06)
        let crop = try #require(DetectionPlan.crop(around: newcomer, aspect: Self.wide))
        #expect(plan.regions(subject: nil, newcomers: [newcomer], aspect: Self.wide).first == crop, "while searching: now")
        // While following, every other detection.
        let subject = FractionalBox(centreX: 0.3, centreY: 0.6, width: 0.03, height: 0.08)
        let looks = (0..<4).map { _ in plan.regions(subject: subject, newcomers: [newcomer], aspect: Self.wide).contains(crop) }
        #expect(looks.filter { $0 }.count == 2, "\(looks)")
    }
}
