import ReflexFormats
import ReflexStorage
import ReflexSystem
import Synchronization

/// A timelapse's photos read and decoded ahead of the encoder, on a thread of its own: while
/// the encoder takes photo n, photos n + 1 and n + 2 are read from the card and decoded into
/// the other pictures, so decoding and encoding share the cores instead of taking turns, and a
/// photo slow to decode (or an encoder call slow to return) does not leave the other waiting.
final class TimelapseReadAhead: @unchecked Sendable {
    /// A photo as the encoder gets it: its picture, or why it was left out.
    typealias Photo = Result<TimelapseFrame, TimelapseEncoder.Failure>

    private let paths: [String]
    private let frames: [TimelapseFrame]
    /// Which photo each picture holds (nil: free), and why a photo could not be read.
    private let slots = Mutex<(holds: [Int?], failures: [Int: TimelapseEncoder.Failure])>(
        (Array(repeating: nil, count: TimelapseReadAhead.pictures), [:]))
    private let filled = EventSignal()
    private let freed = EventSignal()
    private let thread = WorkerThread(name: "reflex-tl-read", priority: .background)
    static let largestPhoto = 32 << 20
    /// Pictures decoded into in turn: the one the encoder has and two ahead (3 MB each at 1080p).
    static let pictures = 3

    init(paths: [String], width: Int, height: Int) {
        self.paths = paths
        frames = (0..<TimelapseReadAhead.pictures).map { _ in TimelapseFrame(width: width, height: height) }
    }

    /// Calls `body` with each photo in order, on the caller's thread, while the next is read
    /// on the helper's; `body` returns false to stop early.
    func forEach(_ body: (Int, Photo) -> Bool) {
        guard thread.start({ [self] in readAll() }) else {
            // (No second thread: each photo read as it is wanted.)
            for index in paths.indices where !body(index, read(index, into: frames[0])) { return }
            return
        }
        defer { thread.stop() }
        for index in paths.indices {
            let slot = index % TimelapseReadAhead.pictures
            guard let photo = waitFor(index, in: slot) else { return }
            let goOn = body(index, photo)
            slots.withLock { $0.holds[slot] = nil }
            freed.signal()
            if !goOn { return }
        }
    }

    /// The helper's loop: each photo into the picture the encoder has given back.
    private func readAll() {
        for index in paths.indices {
            let slot = index % TimelapseReadAhead.pictures
            while slots.withLock({ $0.holds[slot] != nil }) {
                if thread.isStopping { return }
                freed.wait(milliseconds: 100)
            }
            if case .failure(let failure) = read(index, into: frames[slot]) {
                slots.withLock { $0.failures[index] = failure }
            }
            slots.withLock { $0.holds[slot] = index }
            filled.signal()
        }
    }

    /// Photo `index` once the helper has read it (nil: the helper stopped).
    private func waitFor(_ index: Int, in slot: Int) -> Photo? {
        while true {
            let state = slots.withLock { ($0.holds[slot], $0.failures[index]) }
            if state.0 == index { return state.1.map { .failure($0) } ?? .success(frames[slot]) }
            if thread.isStopping { return nil }
            filled.wait(milliseconds: 100)
        }
    }

    private func read(_ index: Int, into frame: TimelapseFrame) -> Photo {
        do {
            guard let jpeg = try AtomicFile.read(paths[index], limit: TimelapseReadAhead.largestPhoto),
                  jpeg.count <= TimelapseReadAhead.largestPhoto else {
                return .failure(.photo("\(paths[index]) is gone or too large"))
            }
            try frame.fill(from: jpeg)
            return .success(frame)
        } catch let failure as TimelapseEncoder.Failure {
            return .failure(failure)
        } catch {
            return .failure(.photo("\(paths[index]): \(error)"))
        }
    }
}
