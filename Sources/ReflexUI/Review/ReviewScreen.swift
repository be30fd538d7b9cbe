import ReflexCore

/// Review, while it is open: what the overlay shows of the item on screen, and the question
/// asked before a delete. The picture itself comes from the review thread, beside this.
public struct ReviewScreen: Sendable, Equatable {
    /// The item on screen; nil while the card is being read, and on a card with nothing to show.
    public var info: ReviewInfo?
    /// The card has been read and holds nothing to review.
    public var cardIsEmpty = false
    /// The overlay (the item's details and the buttons) is shown; a tap on the picture hides it.
    public var overlayShown = true
    /// The picture's histogram, and its clipped highlights blinking (the Info button).
    public var histogramShown = false
    /// The photo zoomed in (nil: the whole photo).
    public var zoom: ReviewZoom?
    /// The index (a grid of thumbnails) instead of one item (nil: one item).
    public var grid: ReviewGrid?
    /// "Delete …?" is asked; `deleteHighlighted` false: Cancel, the safe answer, is highlighted.
    public var confirmingDelete = false
    public var deleteHighlighted = false

    public init() {}
}
