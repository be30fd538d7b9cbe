import Foundation
import ReflexTestSupport
import Testing

/// The docs list what the code has: docs/architecture.md every folder of a module's sources
/// in its layout and every thread the camera starts in its thread table; docs/testing.md
/// every system scenario in its module's row. A folder, a thread or a scenario added without
/// its line there fails here, so the pages cannot go stale.
@Suite struct ArchitectureDocTests {
    static let repository = GoldenImage.repository
    static let page = (try? String(contentsOfFile: repository + "/docs/architecture.md", encoding: .utf8)) ?? ""

    /// Every Swift file under Sources, by its path from Sources.
    static let sources: [String] = {
        let root = repository + "/Sources"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.sorted()
    }()

    @Test func theLayoutNamesEveryFolderOfEveryModule() {
        #expect(!Self.page.isEmpty && !Self.sources.isEmpty)
        // The folders inside a module (Sources/Module/Folder/…/File.swift), each named
        // "Folder/" on the page.
        let folders = Set(Self.sources.flatMap { path -> [String] in
            let parts = path.split(separator: "/").map(String.init)
            return parts.count > 2 ? Array(parts[1..<(parts.count - 1)]) : []
        })
        let missing = folders.filter { !Self.page.contains("\($0)/") }.sorted()
        #expect(missing.isEmpty, "folders the layout of docs/architecture.md does not name: \(missing)")
    }

    @Test func theThreadTableNamesEveryThreadTheCameraStarts() throws {
        let pattern = try Regex(#"WorkerThread\(name: "(reflex-[a-z-]+)""#)
        var threads = Set<String>()
        for path in Self.sources where !path.hasPrefix("ReflexBench/") {
            let text = (try? String(contentsOfFile: Self.repository + "/Sources/" + path, encoding: .utf8)) ?? ""
            for match in text.matches(of: pattern) { threads.insert(String(match.output[1].substring ?? "")) }
        }
        #expect(threads.count > 10)
        let missing = threads.filter { !Self.page.contains("| `\($0)` |") }.sorted()
        #expect(missing.isEmpty, "threads the table of docs/architecture.md does not list: \(missing)")
    }

    @Test func theScenarioTableNamesEveryScenarioInItsModulesRow() throws {
        let testing = try String(contentsOfFile: Self.repository + "/docs/testing.md", encoding: .utf8)
        let folder = Self.repository + "/image-build/systest/scenarios"
        let modules = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".py") && $0 != "__init__.py" }
        let registered = try Regex(#"@scenario\("([a-z0-9-]+)""#)
        var missing: [String] = []
        for module in modules.sorted() {
            let text = try String(contentsOfFile: folder + "/" + module, encoding: .utf8)
            let row = testing.split(separator: "\n").first { $0.hasPrefix("| `\(module)` |") } ?? ""
            for match in text.matches(of: registered) {
                let name = String(match.output[1].substring ?? "")
                if !row.contains("`\(name)`") { missing.append("\(module): \(name)") }
            }
        }
        #expect(!modules.isEmpty)
        #expect(missing.isEmpty, "scenarios docs/testing.md's table does not list in their module's row: \(missing)")
    }
}
