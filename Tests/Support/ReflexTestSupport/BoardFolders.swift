import Foundation

/// The repository's board folders: every folder of Board/ but those Board/not-boards names
/// (read from there, as image-build/package reads it).
public enum BoardFolders {
    public static let root = GoldenImage.repository + "/Board"

    /// The boards' folder names, sorted.
    public static var names: [String] {
        let notBoards = ((try? String(contentsOfFile: root + "/not-boards", encoding: .utf8)) ?? "")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.filter { name in
            var folder: ObjCBool = false
            return !notBoards.contains(name) && FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &folder)
                && folder.boolValue
        }.sorted()
    }
}
