/// exiftool's reading of a file, tag by tag: `exiftool -a -G1 -n -s` prints
/// "[Group] Name : value" lines, kept here as "Group:Name" → value (numbers unformatted).
public struct ExiftoolTags {
    public private(set) var values: [String: String] = [:]
    public let groups: Set<String>

    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    public init(file: String) throws {
        let run = try ProgramRun(["exiftool", "-a", "-G1", "-n", "-s", file])
        guard run.status == 0 else { throw Unreadable(description: "exiftool cannot read \(file): \(run.output)\(run.errors)") }
        var groups = Set<String>()
        for line in run.output.split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                  let colon = line.firstRange(of: ": ") else { continue }
            let group = String(line[line.index(after: line.startIndex)..<close])
            let name = line[line.index(after: close)..<colon.lowerBound].split(separator: " ").joined()
            groups.insert(group)
            values[group + ":" + name] = String(line[colon.upperBound...])
        }
        self.groups = groups
    }

    public subscript(_ key: String) -> String? { values[key] }

    /// A number, for comparisons with a tolerance.
    public func number(_ key: String) -> Double? { values[key].flatMap { Double($0) } }
}
