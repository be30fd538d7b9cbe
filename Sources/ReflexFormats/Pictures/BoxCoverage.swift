/// Which source pixels each destination pixel of a box filter covers along one axis, and by
/// how much. Counted in units of 1/destination pixel, so the edges are exact integers and each
/// destination pixel's weights sum to exactly one.
struct BoxCoverage {
    let destination: Int
    /// For each term: the source pixel and its weight; destination pixel i's terms are `terms(of: i)`.
    let sources: [Int]
    let weights: [Float]
    private let starts: [Int]

    init(source: Int, destination: Int) {
        self.destination = destination
        var (sources, weights, starts) = ([Int](), [Float](), [Int]())
        for i in 0..<destination {
            // Destination pixel i spans [i·source, (i+1)·source); source pixel j spans [j·d, (j+1)·d).
            let (low, high) = (i * source, (i + 1) * source)
            starts.append(sources.count)
            for j in (low / destination)...((high - 1) / destination) {
                let overlap = min(high, (j + 1) * destination) - max(low, j * destination)
                sources.append(j)
                weights.append(Float(overlap) / Float(source))
            }
        }
        starts.append(sources.count)
        (self.sources, self.weights, self.starts) = (sources, weights, starts)
    }

    func terms(of i: Int) -> Range<Int> { starts[i]..<starts[i + 1] }
}
