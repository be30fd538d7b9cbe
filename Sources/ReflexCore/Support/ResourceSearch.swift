/// Where a file the camera ships (a font, the detector's model) may be for a binary at
/// `executablePath`: installed under `<prefix>/share/reflex/` beside an installed binary
/// (/usr/bin/reflex → /usr/share/reflex/…), else in a folder of the repository above a binary
/// built in a clone (.build/release/reflex → Fonts/…, Models/…). Nearest first.
public enum ResourceSearch {
    public static func candidates(executablePath: String, installed: String, inRepository: String) -> [String] {
        // The folders above the binary, nearest first ("" is the root).
        var folders: [String] = []
        var folder = executablePath
        for _ in 0..<6 {
            guard let slash = folder.lastIndex(of: "/") else { break }
            folder = String(folder[..<slash])
            folders.append(folder)
        }
        var candidates: [String] = []
        if folders.count >= 2 { candidates.append(folders[1] + "/share/reflex/" + installed) }
        return candidates + folders.map { $0 + "/" + inRepository }
    }
}
