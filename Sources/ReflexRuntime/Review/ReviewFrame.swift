import ReflexCore
import ReflexUI

/// One picture of review's single view, as the realtime loop copies it to the panel: the
/// whole panel's XRGB pixels (the picture centred on black), what the overlay says of it,
/// and its clipped highlights for the Info view's blinking. Three of these move between the
/// review thread, which refills one, and the loop, which only reads the one it took.
public final class ReviewFrame {
    /// `width` × `height` (the panel's) XRGB pixels, rows `width` apart.
    public internal(set) var pixels: [UInt32] = []
    public internal(set) var width = 0
    public internal(set) var height = 0
    /// Where the picture sits on the panel.
    public internal(set) var picture = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// One bit a picture pixel (row-major within `picture`): at or above the clipping level.
    public internal(set) var clipped: [UInt64] = []
    public internal(set) var info: ReviewInfo?
    public internal(set) var cardIsEmpty = false
    /// Which opening of review this frame belongs to (a frame of an earlier one is not shown).
    public internal(set) var session = 0

    /// Whether the picture's pixel at panel (`x`, `y`) is clipped.
    @inline(__always) func isClipped(x: Int, y: Int) -> Bool {
        let bit = (y - picture.y) * picture.width + (x - picture.x)
        return clipped[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }
}
