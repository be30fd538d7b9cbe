import ReflexTestSupport
import Testing
@testable import ReflexBench

/// What `reflex bench instructions` reads of callgrind's dumps.
@Suite("Callgrind counts")
struct CallgrindCounterTests {
    @Test func theTotalsLineOfADumpIsItsCount() throws {
        let folder = TemporaryFolder()
        folder.write("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\n"
                     + "fn=(1) main\n0x4000 0 12\nsummary: 21616394\ntotals: 21616394\n", to: "callgrind.out.2")
        #expect(CallgrindCounter.totalInstructions(inDump: folder.file("callgrind.out.2")) == 21_616_394)
        #expect(CallgrindCounter.totalInstructions(inDump: folder.file("none")) == nil, "no dump, no count")
        folder.write("events: Ir\nfn=(1) main\n", to: "callgrind.out.2")
        #expect(CallgrindCounter.totalInstructions(inDump: folder.file("callgrind.out.2")) == nil, "a dump cut short has no count")
    }
}
