/// Which of the card's items review shows, newest first: the next and previous (a swipe, the
/// first dial, the arrow keys) go round from the oldest to the newest, as a camera's review
/// does; after a delete the next older item is shown (the newer one when the oldest went).
public struct ReviewCursor: Sendable, Equatable {
    public private(set) var items: [ReviewItem]
    public private(set) var index: Int

    /// At the newest item (nil when the card has none).
    public init?(items: [ReviewItem]) {
        guard !items.isEmpty else { return nil }
        (self.items, index) = (items, 0)
    }

    public var current: ReviewItem { items[index] }

    /// Towards older items (positive) or newer ones.
    public mutating func move(_ steps: Int) {
        index = ((index + steps) % items.count + items.count) % items.count
    }

    /// Item `index` (the index's choice), kept within the card.
    public mutating func select(_ index: Int) { self.index = min(max(index, 0), items.count - 1) }

    /// The card's items again (a delete, a card put back): the same item if it is still there,
    /// else the one now at its place. False when none is left.
    public mutating func refresh(_ newItems: [ReviewItem]) -> Bool {
        guard !newItems.isEmpty else { return false }
        let name = current.name
        index = newItems.firstIndex { $0.name == name } ?? min(index, newItems.count - 1)
        items = newItems
        return true
    }

    /// The items to decode ahead of a swipe: the next and the previous.
    public var neighbours: [ReviewItem] {
        items.count < 2 ? [] : Array(Set([(index + 1) % items.count, (index + items.count - 1) % items.count]))
            .sorted().map { items[$0] }
    }
}
