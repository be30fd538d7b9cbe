/// Where two frames of samples first differ, said briefly (a failed comparison of whole
/// frames would print millions of numbers).
enum SampleDifference {
    /// nil when `decoded` equals `expected`.
    static func first(_ decoded: [UInt16], _ expected: [UInt16], width: Int) -> String? {
        guard decoded.count == expected.count else { return "\(decoded.count) samples, not \(expected.count)" }
        let differing = decoded.indices.filter { decoded[$0] != expected[$0] }
        guard let index = differing.first else { return nil }
        return "\(differing.count) samples differ, the first at x \(index % width), y \(index / width): "
            + "\(decoded[index]) instead of \(expected[index])"
    }
}
