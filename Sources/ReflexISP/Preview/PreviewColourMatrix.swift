/// The camera's colour matrix fitted to the preview's tables (`PreviewISP`): its hot loop
/// indexes the gamma table with each row's result, so no result may leave it.
enum PreviewColourMatrix {
    /// The colour matrix as the hot loop takes it. Every result of a row must stay inside the
    /// gamma table: a row whose positive (or negative) coefficients add up to more than the
    /// table's margin is scaled down, and a matrix with a non-number in it is the identity.
    /// (Real colour matrices are far inside: rows add to about 1, coefficients within ±3.)
    static func bounded(_ m: [Double]) -> (Float, Float, Float, Float, Float, Float, Float, Float, Float) {
        // (No arrays made here: this runs whenever white balance moves.)
        var finite = m.count == 9
        // (By index: an unoptimised build allocates in an array's iterator.)
        for i in m.indices where !m[i].isFinite { finite = false }
        guard finite else { return (1, 0, 0, 0, 1, 0, 0, 0, 1) }
        let reachAbove = Double(PreviewISP.gammaAbove + (1 << PreviewISP.linearBits) - 2) / Double(PreviewISP.linearMaximum)
        let reachBelow = Double(PreviewISP.gammaBelow - 2) / Double(PreviewISP.linearMaximum)
        let s0 = rowShrink(m, 0, reachAbove, reachBelow), s1 = rowShrink(m, 1, reachAbove, reachBelow)
        let s2 = rowShrink(m, 2, reachAbove, reachBelow)
        return (Float(m[0] * s0), Float(m[1] * s0), Float(m[2] * s0),
                Float(m[3] * s1), Float(m[4] * s1), Float(m[5] * s1),
                Float(m[6] * s2), Float(m[7] * s2), Float(m[8] * s2))
    }

    /// How much a matrix row must shrink so its results stay inside the gamma table.
    private static func rowShrink(_ m: [Double], _ row: Int, _ reachAbove: Double, _ reachBelow: Double) -> Double {
        var positive = 0.0, negative = 0.0
        for i in row * 3..<row * 3 + 3 { if m[i] > 0 { positive += m[i] } else { negative -= m[i] } }
        // (Two-argument mins: the three-argument one is variadic, an array.)
        return min(min(1, reachAbove / max(positive, .leastNonzeroMagnitude)), reachBelow / max(negative, .leastNonzeroMagnitude))
    }
}
