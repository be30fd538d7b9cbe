import ReflexCore

/// One person found in one region of the frame (a square of the sweep, a crop around a
/// subject), already in the frame's fractions, with the region it was found in.
public struct RegionDetection: Sendable, Equatable {
    public var detection: PersonDetection
    public var region: FractionalBox

    public init(detection: PersonDetection, region: FractionalBox) {
        (self.detection, self.region) = (detection, region)
    }

    /// Whether the box ends at an edge of its region that is not an edge of the frame: the
    /// person went on beyond what the detector saw, so the box holds only part of them.
    public var isCut: Bool {
        let box = detection.box, margin = DetectionMerge.edgeMargin
        let left = region.x > 1e-9 && box.x <= region.x + margin * region.width
        let right = region.x + region.width < 1 - 1e-9 && box.x + box.width >= region.x + (1 - margin) * region.width
        let top = region.y > 1e-9 && box.y <= region.y + margin * region.height
        let bottom = region.y + region.height < 1 - 1e-9 && box.y + box.height >= region.y + (1 - margin) * region.height
        return left || right || top || bottom
    }
}
