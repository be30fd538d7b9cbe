import Testing
@testable import ReflexBench

/// What `reflex bench instructions` reads of callgrind's output.
@Suite("Callgrind counts")
struct CallgrindCounterTests {
    @Test func theCollectedLineOfTheSummaryIsTheCount() {
        let output = """
            ==8856== Callgrind, a call-graph generating cache profiler
            ==8856== Command: reflex bench kernel isp --repeat 2
            ==8856==
            ==8856== Events    : Ir
            ==8856== Collected : 43295788
            ==8856==
            ==8856== I   refs:      43,295,788
            """
        #expect(CallgrindCounter.collected(inOutput: output) == 43_295_788)
        #expect(CallgrindCounter.collected(inOutput: "valgrind: You cannot run 'callgrind-arm64-linux' directly.") == nil,
                "no summary, no count")
        #expect(CallgrindCounter.collected(inOutput: "==1== Collected : \n") == nil, "a summary cut short has no count")
    }
}
