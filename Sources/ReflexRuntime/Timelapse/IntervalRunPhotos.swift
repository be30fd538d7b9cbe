import Synchronization

/// The newest interval run's photos as the photo thread saves them: how many, and their
/// JPEGs in the order saved (what its timelapse is made of). Another run's first photo
/// starts the list afresh. Written by the photo thread, read by the timelapse thread.
public final class IntervalRunPhotos: Sendable {
    private let state = Mutex<(run: Int, saved: Int, jpegs: [String])>((0, 0, []))

    public init() {}

    /// A photo of run `run` was saved, with `jpeg` among its files (nil: none, RAW only).
    public func saved(run: Int, jpeg: String?) {
        state.withLock { state in
            if state.run != run { state = (run, 0, []) }
            state.saved += 1
            if let jpeg { state.jpegs.append(jpeg) }
        }
    }

    /// Photos of run `run` saved so far, and its JPEGs.
    public func photos(ofRun run: Int) -> (saved: Int, jpegs: [String]) {
        state.withLock { $0.run == run ? ($0.saved, $0.jpegs) : (0, []) }
    }
}
