import Testing
@testable import ReflexCore

@Suite("ISO dial (docs/camera.md, Auto and Pro)")
struct ISODialTests {
    @Test func theStopTableIsExactlyTheSeeds() {
        #expect(ISOSpeed.stopTable.map(\.value) == [
            100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 6400, 12800,
        ])
    }

    @Test func aFullRangeSensorOffersEveryStopAndStepsThroughThemInOrder() {
        let scale = ISOScale(sensorRange: 100...12800)
        var iso = ISOSpeed(100)
        var walked = [iso.value]
        while true {
            let result = scale.step(from: iso, .up)
            if result.feedback == .bump { break }
            #expect(result.feedback == .tick)
            iso = result.value
            walked.append(iso.value)
        }
        #expect(walked == ISOSpeed.stopTable.map(\.value))
    }

    @Test func theMinimumBumpsAndHolds() {
        let scale = ISOScale(sensorRange: 100...3200)
        let result = scale.step(from: ISOSpeed(100), .down)
        #expect(result == StepResult(value: ISOSpeed(100), feedback: .bump))
        #expect(result.stoppedAtBound)
    }

    @Test func theSensorsMaximumClampsTheStopsAndBumps() {
        let scale = ISOScale(sensorRange: 64...1600)
        #expect(scale.stops.map(\.value) == [100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600])
        #expect(scale.step(from: ISOSpeed(1250), .up) == StepResult(value: ISOSpeed(1600), feedback: .tick))
        #expect(scale.step(from: ISOSpeed(1600), .up) == StepResult(value: ISOSpeed(1600), feedback: .bump))
    }

    @Test func aSensorStartingAboveHundredStartsAtItsFirstStop() {
        let scale = ISOScale(sensorRange: 150...6400)
        #expect(scale.range == ISOSpeed(160)...ISOSpeed(6400))
        #expect(scale.step(from: ISOSpeed(160), .down).feedback == .bump)
        #expect(scale.step(from: ISOSpeed(3200), .up) == StepResult(value: ISOSpeed(6400), feedback: .tick))
    }

    @Test func aRangeWithoutAnyStopStillOffersTheNearestOne() {
        #expect(ISOScale(sensorRange: 40...80).stops == [ISOSpeed(100)])
        #expect(ISOScale(sensorRange: 20000...40000).stops == [ISOSpeed(12800)])
    }

    @Test func nearestSnapsInStopsNotInNumbers() {
        let scale = ISOScale(sensorRange: 100...12800)
        #expect(scale.nearest(to: ISOSpeed(4400)) == ISOSpeed(3200))  // 0.46 stop vs 0.54 stop
        #expect(scale.nearest(to: ISOSpeed(4600)) == ISOSpeed(6400))
        #expect(scale.nearest(to: ISOSpeed(50)) == ISOSpeed(100))
    }

    @Test func anOffGridValueLandsOnItsNearestStopFirst() {
        let scale = ISOScale(sensorRange: 100...12800)
        #expect(scale.step(from: ISOSpeed(410), .up) == StepResult(value: ISOSpeed(400), feedback: .tick))
    }

    @Test func theHUDLabel() {
        #expect(ISOSpeed(400).description == "ISO 400")
    }
}

@Suite("Shutter dial (docs/camera.md, Auto and Pro)")
struct ShutterDialTests {
    static let seedLabels = [
        "1/8000", "1/6400", "1/5000", "1/4000", "1/3200", "1/2500", "1/2000", "1/1600", "1/1250", "1/1000",
        "1/800", "1/640", "1/500", "1/400", "1/320", "1/250", "1/200", "1/160", "1/125", "1/100", "1/80",
        "1/60", "1/50", "1/40", "1/30", "1/25", "1/20", "1/15", "1/13", "1/10", "1/8", "1/6", "1/5", "1/4",
        "0.3\"", "0.4\"", "0.5\"", "0.6\"", "0.8\"", "1\"",
    ]

    @Test func theStopTableAndItsLabelsAreExactlyTheSeeds() {
        #expect(ShutterSpeed.stopTable.map(\.description) == Self.seedLabels)
        #expect(ShutterSpeed.stopTable.count == 40)
    }

    @Test func labelsParseBack() {
        for stop in ShutterSpeed.stopTable {
            #expect(ShutterSpeed(parsing: stop.description) == stop)
        }
        #expect(ShutterSpeed(parsing: "0.3") == ShutterSpeed(3, 10))
        #expect(ShutterSpeed(parsing: "1") == ShutterSpeed(1, 1))
        #expect(ShutterSpeed(parsing: "1/0") == nil)
        #expect(ShutterSpeed(parsing: "fast") == nil)
        #expect(ShutterSpeed(parsing: "-1") == nil)
    }

    @Test func durationsAreExact() {
        #expect(ShutterSpeed(1, 250).microseconds == 4000)
        #expect(ShutterSpeed(3, 10).microseconds == 300_000)
        #expect(ShutterSpeed(1, 8000).seconds == 0.000125)
        #expect(ShutterSpeed(1, 1) > ShutterSpeed(8, 10))
    }

    @Test func upIsFasterAcrossTheWholeTable() {
        let scale = ShutterScale(exposureRange: 0.0001...2)
        var speed = ShutterSpeed(1, 1)
        var walked = [speed.description]
        while case let result = scale.step(from: speed, .up), result.feedback == .tick {
            speed = result.value
            walked.append(speed.description)
        }
        #expect(walked == Self.seedLabels.reversed())
        #expect(scale.step(from: ShutterSpeed(1, 8000), .up) == StepResult(value: ShutterSpeed(1, 8000), feedback: .bump))
        #expect(scale.step(from: ShutterSpeed(1, 1), .down) == StepResult(value: ShutterSpeed(1, 1), feedback: .bump))
    }

    @Test func theSensorsExposureRangeClampsBothEnds() {
        // A 30 fps sensor: 1/20000 s to one frame time.
        let scale = ShutterScale(exposureRange: 0.00005...(1.0 / 30))
        #expect(scale.fastest == ShutterSpeed(1, 8000))
        #expect(scale.slowest == ShutterSpeed(1, 30))
        #expect(scale.step(from: ShutterSpeed(1, 30), .down).feedback == .bump)
        #expect(scale.step(from: ShutterSpeed(1, 40), .down) == StepResult(value: ShutterSpeed(1, 30), feedback: .tick))

        let slowSensor = ShutterScale(exposureRange: 0.001...0.5)
        #expect(slowSensor.fastest == ShutterSpeed(1, 1000))
        #expect(slowSensor.slowest == ShutterSpeed(5, 10))
        #expect(slowSensor.step(from: ShutterSpeed(1, 1000), .up).feedback == .bump)
    }

    @Test func stopsAreListedFastestFirst() {
        #expect(ShutterScale(exposureRange: 0.1...1).stopsFastestFirst.map(\.description)
            == ["1/10", "1/8", "1/6", "1/5", "1/4", "0.3\"", "0.4\"", "0.5\"", "0.6\"", "0.8\"", "1\""])
    }

    @Test func nearestSnapsInStops() {
        let scale = ShutterScale(exposureRange: 0.0001...1)
        #expect(scale.nearest(toSeconds: 1.0 / 137) == ShutterSpeed(1, 125))
        #expect(scale.nearest(toSeconds: 0.29) == ShutterSpeed(3, 10))
        #expect(scale.nearest(toSeconds: 5) == ShutterSpeed(1, 1))
    }
}

@Suite("Exposure compensation")
struct ExposureCompensationTests {
    @Test func labelsAreThirdsOfAStopAsCameraDialsPrintThem() {
        #expect((-9...9).map { ExposureCompensation(thirds: $0).description } == [
            "−3", "−2 2/3", "−2 1/3", "−2", "−1 2/3", "−1 1/3", "−1", "−2/3", "−1/3", "0",
            "+1/3", "+2/3", "+1", "+1 1/3", "+1 2/3", "+2", "+2 1/3", "+2 2/3", "+3",
        ])
    }

    @Test func everyLabelParsesBackAndDecimalsRoundToThirds() {
        for thirds in -9...9 {
            let value = ExposureCompensation(thirds: thirds)
            #expect(ExposureCompensation(parsing: value.description) == value)
        }
        #expect(ExposureCompensation(parsing: "+0.7")?.thirds == 2)
        #expect(ExposureCompensation(parsing: "-1.3")?.thirds == -4)
        #expect(ExposureCompensation(parsing: "-1 1/3")?.thirds == -4)
        for bad in ["+3 1/3", "4", "1/2", "", "+", "two"] { #expect(ExposureCompensation(parsing: bad) == nil, "\(bad)") }
        #expect(ExposureCompensation(thirds: 20).thirds == 9)
        #expect(ExposureCompensation(thirds: -3).stops == -1)
    }
}
