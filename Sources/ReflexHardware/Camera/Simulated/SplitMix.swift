/// A small, fast, seedable random source (SplitMix64) with approximately Gaussian draws:
/// frames are reproducible for a given frame number.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The generator for frame `number` of a stream (`stream` tells the twins apart): its
    /// numbers share nothing with another frame's. (Seeds a multiple of the step apart gave
    /// each frame the last one's numbers a step on: its noise the last frame's, moved a block
    /// row, which a burst's alignment found and followed.)
    init(frame number: UInt64, stream: UInt64) {
        var scrambler = SplitMix(seed: number ^ (stream << 56))
        state = scrambler.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Sum of four uniforms, centred and scaled to unit variance: close enough to a normal
    /// distribution for sensor noise, and cheap.
    mutating func gaussian() -> Double {
        let value = next()
        var sum = 0.0
        for shift in stride(from: 0, to: 64, by: 16) { sum += Double((value >> UInt64(shift)) & 0xFFFF) }
        return (sum / 65535 - 2) * 1.732_050_8
    }
}
