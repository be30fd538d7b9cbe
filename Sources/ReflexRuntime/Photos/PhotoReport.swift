import ReflexCore

/// What the photo thread tells the interface: the last photo saved (its number, its files
/// and its thumbnail, shown in a corner as cameras show the last shot), or why it failed.
public struct PhotoReport: Sendable, Equatable {
    /// Photos saved since the camera started.
    public var saved = 0
    /// Photos that could not be saved.
    public var failed = 0
    /// Photos cancelled before they were developed (extreme memory pressure), in all.
    public var cancelled = 0
    public var lastNumber: PhotoNumber?
    public var lastPaths: [String] = []
    /// The frame the last photo came from, and how late it was against the press.
    public var lastSequence: UInt32 = 0
    public var lastFramesLate = 0
    /// The last photo's file sizes (nil: that kind was not saved), for the shots left.
    public var lastRawBytes: Int64?
    public var lastJPEGBytes: Int64?
    /// Why the last photo failed, until one is saved again.
    public var error: String?
    /// Why the photos held are not on the card, while they wait (Retry, Discard).
    public var saveProblem: SaveProblem?
    /// The last photo's thumbnail (RGB), for the screen.
    public var thumbnail: [UInt8] = []
    public var thumbnailWidth = 0
    public var thumbnailHeight = 0

    public init() {}
}
