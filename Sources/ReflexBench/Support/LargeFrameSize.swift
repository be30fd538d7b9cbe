import ArgumentParser

/// A `--size WIDTHxHEIGHT` of a raw frame: even sides, at least 128.
enum LargeFrameSize {
    static func parse(_ text: String) throws -> (width: Int, height: Int) {
        let sides = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides.allSatisfy({ $0 >= 128 && $0 % 2 == 0 }) else {
            throw ValidationError("--size is WIDTHxHEIGHT, even, at least 128x128")
        }
        return (sides[0], sides[1])
    }
}
