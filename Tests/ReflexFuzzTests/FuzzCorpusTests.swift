import Foundation
import ReflexFuzzTargets
import Testing

/// Every fuzz target's corpus and every finding kept (Tests/Fuzz/regressions/<target>/) run
/// through the target as the plain build has it: a finding fixed stays fixed. The crash it
/// was is the test's failure (the process traps), so each input is named first.
@Suite struct FuzzCorpusTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz").path

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { folder + "/" + $0 }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everyInputKeptIsReadWithoutACrash(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let corpus = Self.files(Self.fuzz + "/corpus/" + name)
        #expect(!corpus.isEmpty, "every target has a seed corpus")
        for file in corpus + Self.files(Self.fuzz + "/regressions/" + name) {
            let bytes = try #require(FileManager.default.contents(atPath: file), "\(file)")
            print("fuzz \(name): \(file.split(separator: "/").suffix(2).joined(separator: "/"))")
            target.run(Array(bytes))
        }
    }

    /// The seeds the camera's own encoders write are the committed ones: a change of format
    /// shows here, and `reflex-fuzz seeds` writes them again.
    @Test func theCommittedSeedsAreTheEncodersOutput() throws {
        for (name, seeds) in try FuzzSeeds.all() {
            for seed in seeds {
                let path = Self.fuzz + "/corpus/" + name + "/" + seed.name
                #expect(FileManager.default.contents(atPath: path).map(Array.init) == seed.bytes, "\(path)")
            }
        }
    }
}
