import ReflexCore

/// The persons of one detection, from all the regions it looked at, each once: the regions
/// overlap, so one person is often found twice (non-maximum suppression in the frame's
/// coordinates), and one cut by a region's edge is found whole in its neighbour.
/// Pure.
public enum DetectionMerge {
    /// Two boxes overlapping this much (over their union) are one person.
    public static let sameOverlap = 0.45
    /// A cut box this much inside another box is part of that person.
    public static let partInside = 0.6
    /// A box this near its region's edge (of the region's side) touches it.
    public static let edgeMargin = 0.02

    /// Each person once: the most confident box of a person seen whole, else the union of the
    /// parts, with the highest confidence any of its boxes had. Most confident first.
    public static func merge(_ found: [RegionDetection]) -> [PersonDetection] {
        var people: [(box: FractionalBox, confidence: Double, whole: Bool)] = []
        for candidate in found.sorted(by: { $0.detection.confidence > $1.detection.confidence }) {
            let box = candidate.detection.box, whole = !candidate.isCut
            guard let index = people.firstIndex(where: { samePerson($0.box, wasWhole: $0.whole, box, isWhole: whole) }) else {
                people.append((box, candidate.detection.confidence, whole))
                continue
            }
            // (Sorted: the person's confidence is already the highest.)
            switch (people[index].whole, whole) {
            case (true, _): break
            case (false, true): (people[index].box, people[index].whole) = (box, true)
            case (false, false): people[index].box = people[index].box.union(box)
            }
        }
        return people.map { PersonDetection(box: $0.box, confidence: $0.confidence) }
    }

    /// Whether two boxes are one person: they overlap as one, or a cut one lies mostly in the other.
    static func samePerson(_ a: FractionalBox, wasWhole aWhole: Bool, _ b: FractionalBox, isWhole bWhole: Bool) -> Bool {
        if a.overlap(b) >= sameOverlap { return true }
        if !aWhole && a.fraction(inside: b) >= partInside { return true }
        if !bWhole && b.fraction(inside: a) >= partInside { return true }
        // Two parts of one person, each cut where the other goes on: they overlap at the cut.
        return !aWhole && !bWhole && a.fraction(inside: b) > 0 && heightsAgree(a, b)
    }

    /// Two parts cut side by side span about the same rows (or, cut above and below, the same columns).
    static func heightsAgree(_ a: FractionalBox, _ b: FractionalBox) -> Bool {
        func shared(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
            max(min(a1, b1) - max(a0, b0), 0) / max(min(a1 - a0, b1 - b0), 1e-9)
        }
        return shared(a.y, a.y + a.height, b.y, b.y + b.height) >= 0.7 || shared(a.x, a.x + a.width, b.x, b.x + b.width) >= 0.7
    }
}
