/// How a DNG holds its raw samples.
public enum DNGCompression: Sendable, Equatable {
    /// The 16-bit samples as they are, in strips: the least work to write.
    case none
    /// Lossless JPEG (DNG's compression 7) in `DNGCompression.tileSide`-pixel tiles: the same
    /// values in about half the bytes, at the cost of coding them.
    case losslessJPEG

    /// Adobe's own tile size, which every reader expects.
    static let tileSide = 256
}
