import ReflexCore

/// What became of one press from another program: where its files went, or why there are none.
public struct PhotoResult: Sendable, Equatable {
    public var ticket: Int?
    public var number: PhotoNumber?
    public var paths: [String] = []
    public var error: String?
    /// The frame it came from, and how many frames after the press that frame was.
    public var sequence: UInt32
    public var framesLate: Int
    public var exposureSeconds: Double
    public var iso: Int
    /// A bracket's frame: its offset from the base, thirds of a stop (one press, several
    /// results).
    public var bracketOffsetThirds: Int?
    /// The interval run the photo is of (its timelapse is made of them).
    public var intervalRun: Int?
    /// How many of the press's frames will never be taken (cancelled, refused, a bracket
    /// cut short): this result stands for them, so a program waiting for the press's
    /// results stops waiting. 0 for a frame that was taken.
    public var untakenFrames = 0

    public init(ticket: Int?, sequence: UInt32, framesLate: Int, exposureSeconds: Double, iso: Int) {
        (self.ticket, self.sequence, self.framesLate) = (ticket, sequence, framesLate)
        (self.exposureSeconds, self.iso) = (exposureSeconds, iso)
    }
}
