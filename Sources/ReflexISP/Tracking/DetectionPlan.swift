import ReflexCore

/// Where the detector looks at each detection: a few regions of the frame, each the network's
/// square input. A person far away is a few pixels high in the whole frame, too small for a
/// 300×300 network; so the detector looks closely where someone is (a square crop around the
/// subject with margin for its motion, or around a newcomer seen once, to see them again
/// before they are dropped as a false find), and sweeps the frame's squares
/// (`DetectionTiles`) with what is left, faster while it searches than while it follows.
/// Pure: the caller gives the tracks' boxes; the plan keeps its place in the sweep.
public struct DetectionPlan: Sendable {
    /// Regions a detection looks at (each a forward pass of the network).
    public static let regionsPerDetection = 2
    /// A subject at least this high (of the frame) is seen well in the whole frame.
    public static let smallSubject = 0.35
    /// The crop is this many times the person's height on a side, and never smaller than
    /// `smallestRegion` of the frame's height.
    public static let margin = 3.0
    public static let smallestRegion = 0.3

    /// The next square of the sweep, and how many detections were planned.
    public private(set) var sweepPosition = 0
    public private(set) var detectionsPlanned = 0

    public init() {}

    /// The regions of the next detection (fractions of the frame; `aspect`: its width over its
    /// height). `subject`: where the subject is predicted, if one is followed; `newcomers`:
    /// people seen once, waiting for a second look.
    public mutating func regions(subject: FractionalBox?, newcomers: [FractionalBox], aspect: Double) -> [FractionalBox] {
        defer { detectionsPlanned += 1 }
        var regions: [FractionalBox] = []
        if let subject { regions.append(Self.crop(around: subject, aspect: aspect) ?? Framing.wholePicture) }
        // A newcomer is looked at again at once while searching, every other detection while
        // following (the subject's crop comes first).
        if !newcomers.isEmpty && (subject == nil || detectionsPlanned % 2 == 1) {
            let newcomer = newcomers[(detectionsPlanned / 2) % newcomers.count]
            regions.append(Self.crop(around: newcomer, aspect: aspect) ?? Framing.wholePicture)
        }
        let sweep = DetectionTiles.sweep(aspect: aspect)
        for _ in sweep.indices where regions.count < Self.regionsPerDetection {
            let square = sweep[sweepPosition % sweep.count]
            sweepPosition = (sweepPosition + 1) % sweep.count
            if !regions.contains(square) { regions.append(square) }
        }
        return regions
    }

    /// A square of the frame around a person at `box`, with margin; nil for one large enough
    /// to be seen in the whole frame.
    public static func crop(around box: FractionalBox, aspect: Double) -> FractionalBox? {
        guard box.height < smallSubject else { return nil }
        let height = min(max(box.height * margin, smallestRegion), 1)
        let width = min(height / max(aspect, 1e-3), 1)
        let x = min(max(box.centreX - width / 2, 0), 1 - width)
        let y = min(max(box.centreY - height / 2, 0), 1 - height)
        return FractionalBox(x: x, y: y, width: width, height: height)
    }
}
