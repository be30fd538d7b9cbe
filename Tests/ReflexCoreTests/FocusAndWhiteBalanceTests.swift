import Testing
@testable import ReflexCore

@Suite("Focus dial (docs/camera.md, Auto and Pro)")
struct FocusDialTests {
    @Test func distanceLabelsFollowTheSeedsMapping() {
        let expected: [(Double, String)] = [
            (0.0, "0.1m"), (0.05, "0.1m"), (0.1, "0.1m"), (0.15, "0.3m"), (0.2, "0.3m"), (0.3, "0.5m"),
            (0.4, "0.5m"), (0.5, "1m"), (0.6, "1m"), (0.75, "2m"), (0.8, "2m"), (0.9, "5m"), (0.95, "5m"),
            (0.96, "∞"), (1.0, "∞"),
        ]
        for (position, label) in expected {
            #expect(FocusPosition(position).distanceLabel == label, "at \(position)")
        }
    }

    @Test func stepsOfTwoHundredthsTickOnEachTenthMark() {
        let scale = FocusScale()
        var position = FocusPosition.macro
        var ticks: [String] = []
        var steps = 0
        while true {
            let result = scale.step(from: position, .up)
            if result.feedback == .bump { break }
            steps += 1
            if result.feedback == .tick { ticks.append(result.value.description) }
            position = result.value
        }
        #expect(steps == 50)
        #expect(position == .infinity)
        #expect(ticks == ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"])
    }

    @Test func goingDownTicksWhenArrivingAtAMarkToo() {
        let scale = FocusScale()
        #expect(scale.step(from: FocusPosition(0.32), .down) == StepResult(value: FocusPosition(0.3), feedback: .tick))
        #expect(scale.step(from: FocusPosition(0.3), .down) == StepResult(value: FocusPosition(0.28), feedback: .none))
        #expect(scale.step(from: FocusPosition(0.02), .down) == StepResult(value: .macro, feedback: .tick))
    }

    @Test func aStepPassingAMarkWithoutLandingOnItStillTicks() {
        let scale = FocusScale(stepThousandths: 30)
        #expect(scale.step(from: FocusPosition(0.19), .up) == StepResult(value: FocusPosition(0.22), feedback: .tick))
        #expect(scale.step(from: FocusPosition(0.22), .down) == StepResult(value: FocusPosition(0.19), feedback: .tick))
    }

    @Test func boundsBumpAndHold() {
        let scale = FocusScale()
        #expect(scale.step(from: .macro, .down) == StepResult(value: .macro, feedback: .bump))
        #expect(scale.step(from: .infinity, .up) == StepResult(value: .infinity, feedback: .bump))
        // A step that would overshoot stops at the bound, and reaching it ticks.
        #expect(scale.step(from: FocusPosition(0.99), .up) == StepResult(value: .infinity, feedback: .tick))
    }

    @Test func positionsPrintAndParseExactly() {
        #expect(FocusPosition(0.35).description == "0.35")
        #expect(FocusPosition(0.5).description == "0.5")
        #expect(FocusPosition(0.007).description == "0.007")
        #expect(FocusPosition.macro.description == "0")
        #expect(FocusPosition.infinity.description == "1")
        for text in ["0", "0.35", "0.007", "1", "1.0", ".5", "0.999"] {
            #expect(FocusPosition(parsing: text) != nil, "\(text)")
        }
        #expect(FocusPosition(parsing: ".5") == FocusPosition(0.5))
        for text in ["", ".", "1.5", "2", "-0.1", "0.1234", "abc", "0.x", "0..1"] {
            #expect(FocusPosition(parsing: text) == nil, "\(text)")
        }
    }

    @Test func valuesClampToTheLensRange() {
        #expect(FocusPosition(1.7) == .infinity)
        #expect(FocusPosition(-0.2) == .macro)
    }
}

@Suite("White balance (docs/camera.md, Auto and Pro)")
struct WhiteBalanceTests {
    @Test func presetsCarryTheSeedsKelvin() {
        let kelvin = Dictionary(uniqueKeysWithValues: WhiteBalancePreset.allCases.map { ($0.name, $0.kelvin) })
        #expect(kelvin == ["Sunny": 5500, "Cloudy": 6500, "Shade": 7500, "Tungsten": 3200, "Fluorescent": 4000])
        #expect(WhiteBalance.presetRow.map(\.description)
            == ["Auto", "Sunny 5500K", "Cloudy 6500K", "Shade 7500K", "Tungsten 3200K", "Fluorescent 4000K"])
        #expect(WhiteBalance.auto.kelvin == nil)
    }

    @Test func theKelvinDialRunsFrom2000To10000In100KSteps() {
        let scale = KelvinScale()
        #expect(scale.list.stops.first == 2000)
        #expect(scale.list.stops.last == 10000)
        #expect(scale.list.stops.count == 81)
        #expect(scale.step(from: 5500, .up) == StepResult(value: 5600, feedback: .tick))
        #expect(scale.step(from: 2000, .down) == StepResult(value: 2000, feedback: .bump))
        #expect(scale.step(from: 10000, .up) == StepResult(value: 10000, feedback: .bump))
        #expect(WhiteBalance.kelvin(5600).description == "5600K")
    }

    @Test func settingValuesRoundTrip() {
        for wb in WhiteBalance.presetRow + [.kelvin(2000), .kelvin(10000), .kelvin(4300)] {
            #expect(WhiteBalance(parsing: wb.settingValue) == wb)
        }
        #expect(WhiteBalance(parsing: "5600") == .kelvin(5600))
        #expect(WhiteBalance(parsing: "SUNNY") == .preset(.sunny))
        #expect(WhiteBalance(parsing: "1900K") == nil)
        #expect(WhiteBalance(parsing: "5650K") == nil)
        #expect(WhiteBalance(parsing: "daylight") == nil)
    }
}
