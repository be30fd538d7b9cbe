/// exiftool's reading of a file, tag by tag: `exiftool -a -G1 -n -s` prints
/// "[Group] Name : value" lines, kept here as "Group:Name" → value (numbers unformatted).
struct ExiftoolTags {
    private(set) var values: [String: String] = [:]
    let groups: Set<String>

    init(file: String) throws {
        let run = try ChildProcess.run(["exiftool", "-a", "-G1", "-n", "-s", file])
        guard run.status == 0 else { throw TestFailure("exiftool cannot read \(file): \(run.allText)") }
        var groups = Set<String>()
        for line in run.text.split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                  let colon = line.firstRange(of: ": ") else { continue }
            let group = String(line[line.index(after: line.startIndex)..<close])
            let name = line[line.index(after: close)..<colon.lowerBound].split(separator: " ").joined()
            groups.insert(group)
            values[group + ":" + name] = String(line[colon.upperBound...])
        }
        self.groups = groups
    }

    subscript(_ key: String) -> String? { values[key] }

    /// A number, for comparisons with a tolerance.
    func number(_ key: String) -> Double? { values[key].flatMap { Double($0) } }
}
