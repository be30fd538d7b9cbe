import ReflexCore
import Testing
@testable import ReflexRuntime

/// Input posted by another thread, taken by the loop in order, at most 64 waiting.
@Suite struct PostedInputsTests {
    @Test func takenOldestFirstWithTheirTimesAndRefusedPastSixtyFour() {
        let inputs = PostedInputs<InputEvent>(capacity: 64)
        for index in 0..<64 { #expect(inputs.post(.key(code: 212, pressed: true), at: Double(index))) }
        #expect(!inputs.post(.key(code: 212, pressed: true), at: 64))
        var times: [Double] = []
        inputs.takeEach { event, time in
            #expect(event == .key(code: 212, pressed: true))
            times.append(time)
        }
        #expect(times == (0..<64).map(Double.init))
        #expect(inputs.post(.key(code: 212, pressed: false), at: 65))
    }
}
