/// What review's overlay says of the item shown, as text made on the review thread (from
/// the card's listing and the file's own EXIF), so the painter only lays it out.
public struct ReviewInfo: Sendable, Equatable {
    /// The item on the card ("100REFLX/RFLX0042"): what a delete or protect names.
    public var name: String
    /// Its DCF number as cameras show it: "100-0042".
    public var number: String
    /// Its place in the card, newest first: 1 of `count`.
    public var position: Int
    public var count: Int
    /// "JPEG", "RAW", "RAW+JPEG", "MOVIE".
    public var format: String
    /// When it was taken ("2026-11-26 13:02:11"), nil where the file does not say.
    public var taken: String?
    /// The exposure line ("ISO 400   1/125   f/2.8   +0.3 EV"), nil for a movie or a file
    /// without EXIF.
    public var exposure: String?
    public var hasLocation = false
    public var isProtected = false
    /// A movie's length ("0:42").
    public var movieLength: String?
    /// The picture's brightness in 64 bins (`ReviewHistogram`), for the Info view.
    public var histogram: [Int] = []
    /// The photo upright in its file's pixels, for the zoom (0: nothing to zoom into, as a
    /// movie or a RAW alone).
    public var photoWidth = 0
    public var photoHeight = 0
    /// A movie once played: where it is and whether it plays (nil: not played yet).
    public var progress: MovieProgress?
    /// Why the picture cannot be shown (a damaged file): said over the black picture.
    public var problem: String?

    public init(name: String, number: String, position: Int, count: Int, format: String) {
        (self.name, self.number, self.position, self.count, self.format) = (name, number, position, count, format)
    }

    /// "3 / 120".
    public var place: String { "\(position) / \(count)" }
}
