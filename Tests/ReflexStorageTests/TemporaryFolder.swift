import Foundation

/// A fresh folder under /tmp for one test, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("reflex-test-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func write(_ text: String, to name: String) {
        _ = FileManager.default.createFile(atPath: path + "/" + name, contents: Data(text.utf8))
    }

    func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The folder holding the test bundle, where SwiftPM also puts the package's executables.
var buildProductsFolder: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
}
