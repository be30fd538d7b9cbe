import Foundation
import ReflexCore
import ReflexStorage
import ReflexTestSupport
import Testing

/// Delete survives SIGKILL at any instant (issue 34): a real child process deletes a card's
/// RAW+JPEG pairs one after another (`card-eraser`, review's own CardEraser) and is killed
/// at random instants, many times over; after each kill the card's check at the next start
/// runs, and every item is whole or gone, never half a pair, never a marked file left. On a
/// loop-mounted FAT image where the kernel has FAT (the attributes' path), a tmpfs otherwise
/// (the renames' path).
@Suite("Delete survives SIGKILL at any instant", .serialized)
struct CardEraserKillTests {
    static let rounds = 60
    static let pairs = 150

    @Test(.tags(.externalTool)) func aKilledDeleteLeavesEveryItemWholeOrGone() throws {
        let eraser = BuildProducts.folder.path + "/card-eraser"
        try #require(FileManager.default.isExecutableFile(atPath: eraser), "the card-eraser fixture is built")
        let card = try SmallCard(kilobytes: 4096)
        let folder = card.path + "/DCIM/100REFLX"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        var (killedMidDelete, deleted) = (0, 0)
        for round in 0..<Self.rounds {
            // A card of pairs again, a cluster or two each (enough that a kill finds the child at work).
            for number in 1...Self.pairs where !card.photos.contains(PhotoNumber(folder: 100, file: number)!.fileStem + ".JPG") {
                let stem = folder + "/" + PhotoNumber(folder: 100, file: number)!.fileStem
                try AtomicFile.write([UInt8](repeating: UInt8(number), count: 6000), to: stem + ".DNG")
                try AtomicFile.write([UInt8](repeating: UInt8(number), count: 3000), to: stem + ".JPG")
            }
            let child = Process()
            child.executableURL = URL(fileURLWithPath: eraser)
            child.arguments = [card.path]
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            // Once it has begun deleting (its first announcement: however slowly this machine
            // started it), a moment later, within its 150 deletes.
            let first = output.fileHandleForReading.availableData
            usleep(UInt32.random(in: 0...3_000, using: &generator))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let announced = String(decoding: first + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            deleted += announced.split(separator: "\n").count
            // A kill inside a delete leaves a marked file (hidden on FAT, renamed elsewhere).
            let marked = card.photos.filter { $0.hasPrefix(".") } + (card.isFAT ? hiddenOnFAT(folder) : [])
            if !marked.isEmpty { killedMidDelete += 1 }

            PhotoCard(root: card.path).removeLeftovers()
            let names = card.photos
            #expect(!names.contains { $0.hasPrefix(".") } && (!card.isFAT || hiddenOnFAT(folder).isEmpty),
                    "round \(round): a marked file left after the check: \(names)")
            for number in 1...Self.pairs {
                let stem = PhotoNumber(folder: 100, file: number)!.fileStem
                let files = names.filter { $0.hasPrefix(stem + ".") }
                #expect(files.count == 0 || files.count == 2, "round \(round): half of \(stem) is left: \(files)")
            }
            // What is left reads back whole.
            for name in names where !name.hasPrefix(".") {
                let bytes = try #require(try AtomicFile.read(folder + "/" + name, limit: 10_000))
                #expect(bytes.count == (name.hasSuffix(".DNG") ? 6000 : 3000) && Set(bytes).count == 1, "round \(round): \(name)")
            }
        }
        // The test means something only if some kills landed inside a delete.
        #expect(killedMidDelete > 0, "no kill landed inside a delete (\(deleted) items deleted in all)")
        print("delete kill test (\(card.isFAT ? "FAT" : "tmpfs")): \(Self.rounds) kills, \(killedMidDelete) inside a delete, "
              + "\(deleted) deletes begun")
    }

    /// The names in `folder` FAT shows as a cut left them (hidden: a delete's first step there).
    private func hiddenOnFAT(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            FATFile.isLeftover(folder + "/" + $0) == true
        }
    }
}
