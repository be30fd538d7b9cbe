import ReflexCore
import ReflexStorage

/// Persons labelled by hand in a frame (Tests/Data/people/NAME.csv: `x,y,width,height,clear`
/// in pixels, `#` comments), as boxes in fractions of the frame.
enum PeopleLabels {
    static func read(_ path: String, width: Int, height: Int) throws -> [FractionalBox] {
        guard let bytes = try AtomicFile.read(path, limit: 1 << 20) else { throw BenchError("no labels at \(path)") }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line -> FractionalBox? in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count >= 4 else { return nil }
            return FractionalBox(x: fields[0] / Double(width), y: fields[1] / Double(height),
                            width: fields[2] / Double(width), height: fields[3] / Double(height))
        }
    }
}
