import ReflexCore

/// Where the detector looks next. A person far away is a few pixels high in the whole
/// analysis frame, too small for a 300×300 network; so while the subject is small the
/// detector looks at the region around where it is predicted (a crop with a margin, which the
/// network enlarges), and at the whole frame every `wholeFrameEvery` detections to find
/// people coming in. Pure: the caller counts the detections.
public enum DetectionPlan {
    public static let wholeFrameEvery = 4
    /// A subject at least this high (of the frame) is seen well in the whole frame.
    public static let smallSubject = 0.35
    /// The region is this many times the subject's height on a side, and never smaller than
    /// `smallestRegion` of the frame's height.
    public static let margin = 3.0
    public static let smallestRegion = 0.3

    /// The part of the analysis frame to detect in (fractions of it), for detection number
    /// `count` with the subject predicted at `subject` (nil: none); nil is the whole frame.
    /// `aspect` is the frame's width over its height, so the region is square in pixels.
    public static func region(around subject: FrameBox?, detection count: Int, aspect: Double) -> FrameBox? {
        guard let subject, subject.height < smallSubject, count % wholeFrameEvery != 0 else { return nil }
        let height = min(max(subject.height * margin, smallestRegion), 1)
        let width = min(height / max(aspect, 1e-3), 1)
        let x = min(max(subject.centreX - width / 2, 0), 1 - width)
        let y = min(max(subject.centreY - height / 2, 0), 1 - height)
        return FrameBox(x: x, y: y, width: width, height: height)
    }
}
