import ReflexTestSupport
import Foundation
import ReflexCore
import Testing
@testable import ReflexStorage

/// Movies on the card: hidden while recorded, shown when finished, and after a cut kept up
/// to their last whole fragment.
@Suite struct MovieFileTests {
    /// A top-level MP4 box of `size` bytes.
    static func box(_ type: String, size: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(size).bigEndian, Array.init) + Array(type.utf8) + [UInt8](repeating: 7, count: size - 8)
    }

    /// A fragmented movie's start and two fragments, the second cut `short` bytes short.
    static func movie(secondFragmentShortBy short: Int = 0) -> (bytes: [UInt8], firstFragmentEnds: Int) {
        let head = box("ftyp", size: 24) + box("moov", size: 700) + box("moof", size: 100) + box("mdat", size: 5000)
        let bytes = head + box("moof", size: 100) + box("mdat", size: 5000)
        return (Array(bytes.dropLast(short)), head.count)
    }

    @Test func aMovieIsHiddenWhileRecordedAndShownWhenFinished() throws {
        let folder = TemporaryFolder()
        let card = PhotoCard(root: folder.path)
        let movie = try MovieFile(on: card, number: PhotoNumber(folder: 100, file: 7)!)
        #expect(movie.path == folder.path + "/DCIM/100REFLX/RFLX0007.MP4")
        #expect(movie.writingPath == folder.path + "/DCIM/100REFLX/.RFLX0007.MP4.recording")
        let bytes = Self.movie().bytes
        #expect(bytes.withUnsafeBytes { movie.append($0) } == 0)
        try movie.sync()
        #expect(!FileManager.default.fileExists(atPath: movie.path))
        #expect(card.highestNumber() == nil)
        try movie.finish()
        #expect(FileManager.default.contents(atPath: movie.path) == Data(bytes))
        #expect(!FileManager.default.fileExists(atPath: movie.writingPath))
        #expect(card.highestNumber() == PhotoNumber(folder: 100, file: 7))
    }

    @Test func anInterruptedMovieIsKeptUpToItsLastWholeFragment() throws {
        let folder = TemporaryFolder()
        let dcf = folder.path + "/DCIM/100REFLX"
        try FileManager.default.createDirectory(atPath: dcf, withIntermediateDirectories: true)
        let (cut, firstEnds) = Self.movie(secondFragmentShortBy: 1200)
        #expect(FileManager.default.createFile(atPath: dcf + "/.RFLX0003.MP4.recording", contents: Data(cut)))
        // Cut in its first second: nothing to play, removed.
        #expect(FileManager.default.createFile(atPath: dcf + "/.RFLX0004.MP4.recording", contents: Data(cut.prefix(firstEnds - 10))))
        let found = PhotoCard(root: folder.path).removeLeftovers()
        #expect(found.moviesRecovered == [dcf + "/RFLX0003.MP4"])
        #expect(found.removed == 1)
        #expect(FileManager.default.contents(atPath: dcf + "/RFLX0003.MP4") == Data(cut.prefix(firstEnds)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dcf) == ["RFLX0003.MP4"])
    }

    @Test func theLayoutKeepsWholeFragmentsAndAFinishedFilesIndex() {
        typealias Box = FragmentedMovieLayout.Box
        let start = [Box("ftyp", size: 24), Box("moov", size: 700)]
        let fragment = [Box("moof", size: 100), Box("mdat", size: 5000)]
        let whole = start + fragment + fragment
        #expect(FragmentedMovieLayout(boxes: whole, fileSize: 10924) == .init(boxes: whole, fileSize: 10924))
        #expect(FragmentedMovieLayout(boxes: whole, fileSize: 10924).playableBytes == 10924)
        #expect(FragmentedMovieLayout(boxes: whole, fileSize: 10924).fragments == 2)
        #expect(FragmentedMovieLayout(boxes: whole, fileSize: 10000).playableBytes == 5824)
        // A moof without its mdat is not a fragment.
        #expect(FragmentedMovieLayout(boxes: start + fragment + [Box("moof", size: 100)], fileSize: 5924).playableBytes == 5824)
        #expect(FragmentedMovieLayout(boxes: whole + [Box("mfra", size: 60)], fileSize: 10984).playableBytes == 10984)
        #expect(FragmentedMovieLayout(boxes: start, fileSize: 724).playableBytes == 0)
        // A size too small to be a box ends the walk.
        #expect(FragmentedMovieLayout(boxes: start + [Box("moof", size: 0)] + fragment, fileSize: 99999).fragments == 0)
    }

    @Test func photosAndMoviesShareOneSequenceOfNumbers() throws {
        let folder = TemporaryFolder()
        let card = PhotoCard(root: folder.path)
        let numbering = CardNumbering(card: card, counter: PhotoCounter(folder: folder.path + "/state"))
        let first = try numbering.next()
        let movie = try MovieFile(on: card, number: try numbering.next())
        // The movie is still hidden: the counter, not the card, keeps its number from the next photo.
        #expect(try numbering.next() == PhotoNumber(folder: 100, file: 3))
        #expect(first == .first)
        #expect(movie.path.hasSuffix("RFLX0002.MP4"))
        movie.abandon()
        #expect(!FileManager.default.fileExists(atPath: movie.writingPath))
    }
}
