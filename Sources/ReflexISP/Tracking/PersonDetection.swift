import ReflexCore

/// A person the detector found in one analysis frame, in fractions of the zoom-1 picture.
public struct PersonDetection: Sendable, Equatable {
    public var box: FractionalBox
    /// The detector's score, 0…1.
    public var confidence: Double

    public init(box: FractionalBox, confidence: Double) {
        (self.box, self.confidence) = (box, confidence)
    }
}
