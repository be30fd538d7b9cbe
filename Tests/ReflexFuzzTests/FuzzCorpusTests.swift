import Foundation
import ReflexFormats
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

    /// The findings that were allocations beyond the bound (which a plain build would simply
    /// make) are refused before anything is decoded.
    @Test func theOversizedFindingsAreRefusedBeforeTheyAreDecoded() throws {
        func bytes(_ target: String, _ name: String) throws -> [UInt8] {
            try #require(FileManager.default.contents(atPath: Self.fuzz + "/regressions/\(target)/\(name)").map(Array.init))
        }
        let tile = try bytes("lossless-jpeg", "sof3-huge-frame-few-bytes.ljpg")
        #expect(throws: RawFileError.self) { try tile.withUnsafeBufferPointer { try LosslessJPEGDecoder.decode($0) } }
        let progressive = try bytes("jpeg-review", "progressive-62208x16638.jpg")
        #expect(throws: ReviewPicture.Failure.self) { try ReviewPicture.jpeg(progressive, fitting: 320, 240) }
        let huge = try bytes("jpeg-review", "sof-65535x65535.jpg")
        #expect(throws: ReviewPicture.Failure.self) { try ReviewDetail.jpeg(huge, forZoom: 1) }
        #expect(throws: ReviewPicture.Failure.self) { try ReviewPicture.jpeg(huge, fitting: 320, 240) }
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
