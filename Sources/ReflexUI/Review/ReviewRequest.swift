import ReflexCore

/// What review's rules ask of the review thread, which owns the card's files.
public enum ReviewRequest: Sendable, Equatable {
    /// Read the card and show its newest item.
    case open
    /// Back to the viewfinder (the thread lets its decoded pictures go: shooting needs the memory).
    case close
    /// Newer (negative) or older (positive) items, this many.
    case step(Int)
    /// Delete the item so named (both files of a pair): the one the question was about,
    /// never whatever is on screen by the time the thread gets to it.
    case delete(name: String)
    /// Show the item at this zoom (nil: whole).
    case zoom(ReviewZoom?)
    /// Show the index, scrolled and highlighted so.
    case grid(ReviewGrid)
    /// Leave the index for item `at` alone.
    case single(at: Int)
    /// The movie shown: play it, or pause it where it is.
    case playOrPause
    /// The movie shown, to this many seconds from its start.
    case seek(Double)
    /// Set or clear the item's read-only mark.
    case protect(name: String, Bool)
}
