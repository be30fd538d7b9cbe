/// Where red sits in the sensor's 2×2 colour filter tile, named by the tile's first row
/// then second row (RGGB = R G / G B).
public enum CFAPattern: String, Sendable, CaseIterable {
    case rggb, grbg, gbrg, bggr

    /// The column and row of red inside the 2×2 tile; blue sits in the other column and row,
    /// green fills the other two.
    public var redPosition: (x: Int, y: Int) {
        switch self {
        case .rggb: (0, 0)
        case .grbg: (1, 0)
        case .gbrg: (0, 1)
        case .bggr: (1, 1)
        }
    }
}
