import ReflexCore
import ReflexFormats
import ReflexUI

/// What review's thread has read from the card to show: each item decoded for the panel with
/// its histogram, the zoomed item's detail, and the index's small pictures, each read once
/// and kept within a budget of bytes (`ByteBudgetCache`), so a swipe back or a scroll shows
/// what was already read. Used by the review thread alone.
struct ReviewPictures {
    /// The decoded pictures kept: the one shown, its neighbours, the last few seen.
    static let decodedBytes = 48 << 20
    /// The index's small pictures kept (a cell's is some 150 KB on a 1280-wide panel).
    static let cellBytes = 16 << 20

    /// A decoded item, as kept.
    struct Decoded {
        var loaded: ReviewLoader.Loaded
        var histogram: ReviewHistogram?
    }

    private let card: String
    private let width: Int, height: Int
    private let log: @Sendable (String) -> Void
    private var decoded = ByteBudgetCache<Decoded>(budgetBytes: ReviewPictures.decodedBytes)
    private var cells = ByteBudgetCache<ReviewPicture?>(budgetBytes: ReviewPictures.cellBytes)
    /// The zoomed item's detail, kept while it is zoomed.
    private var detail: (name: String, picture: ReviewDetail)?

    /// The pictures of the card mounted at `card`, fitted to a panel of `width` × `height`.
    init(card: String, width: Int, height: Int, log: @escaping @Sendable (String) -> Void) {
        (self.card, self.width, self.height, self.log) = (card, width, height, log)
    }

    /// `item` decoded for the panel, as kept when it was read before.
    mutating func decode(_ item: ReviewItem) -> Decoded {
        if let kept = decoded.value(for: item.name) { return kept }
        let loaded = ReviewLoader.load(item, card: card, panelWidth: width, panelHeight: height)
        if let detail = loaded.detail { log("review: \(item.name): \(detail)") }
        let histogram = loaded.picture.map { ReviewHistogram(pixels: $0.pixels, width: $0.width, height: $0.height) }
        let result = Decoded(loaded: loaded, histogram: histogram)
        let bytes = (loaded.picture?.pixels.count ?? 0) * 4 + (histogram?.clipped.count ?? 0) * 8
        decoded.store(result, bytes: bytes, for: item.name)
        return result
    }

    /// `item`'s detail for `zoom`: the one decoded already when it has enough, else decoded
    /// now (nil where the item has no JPEG, or it cannot be read: the whole photo shows).
    mutating func detail(of item: ReviewItem, for zoom: ReviewZoom) -> ReviewDetail? {
        if let detail, detail.name == item.name, detail.picture.scale >= min(zoom.scale, 1) * 0.999 { return detail.picture }
        detail = nil
        do {
            guard let picture = try ReviewLoader.detail(item, card: card, zoom: zoom.scale) else { return nil }
            detail = (item.name, picture)
            return picture
        } catch {
            log("review: \(item.name): no detail: \(error)")
            return nil
        }
    }

    /// `item`'s small picture fitted to the grid's cells, read once (`ReviewLoader.thumbnail`).
    mutating func cellPicture(_ item: ReviewItem, grid: ReviewGrid) -> ReviewPicture? {
        if let kept = cells.value(for: item.name) { return kept }
        let picture = ReviewLoader.thumbnail(item, card: card, width: grid.cellWidth, height: grid.cellHeight)
        cells.store(picture, bytes: (picture?.pixels.count ?? 16) * 4, for: item.name)
        return picture
    }

    /// `items` (the next and previous of the one shown) decoded ahead of a swipe, each only
    /// while `goOn` says nothing new was asked.
    mutating func readAhead(_ items: [ReviewItem], while goOn: () -> Bool) {
        for item in items {
            guard goOn() else { return }
            _ = decode(item)
        }
    }

    /// The small pictures of the rows just above and below the index's view read ahead of a
    /// scroll, while `goOn` says nothing new was asked.
    mutating func readCells(around grid: ReviewGrid, of items: [ReviewItem], while goOn: () -> Bool) {
        let visible = grid.visibleItems
        let ahead = max(0, visible.lowerBound - grid.columns)..<min(items.count, visible.upperBound + 2 * grid.columns)
        for index in ahead where cells.value(for: items[index].name) == nil {
            guard goOn() else { return }
            _ = cellPicture(items[index], grid: grid)
        }
    }

    /// Forgets what was read of `name` (deleted: its files are gone).
    mutating func forget(_ name: String) {
        decoded.remove(name)
        cells.remove(name)
    }

    /// Forgets the zoomed item's detail (review opened afresh).
    mutating func forgetDetail() { detail = nil }

    /// Forgets everything read: the memory goes back to the camera, for shooting needs it more.
    mutating func forgetAll() {
        decoded = ByteBudgetCache(budgetBytes: ReviewPictures.decodedBytes)
        cells = ByteBudgetCache(budgetBytes: ReviewPictures.cellBytes)
        detail = nil
    }
}
