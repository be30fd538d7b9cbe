import Foundation

/// A fresh folder under /tmp for one test's files, removed with everything in it when the
/// test is done.
public final class TemporaryFolder: Sendable {
    public let path: String

    public init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("reflex-test-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` in the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The folder's names, sorted (hidden ones too).
    public func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    public func write(_ text: String, to name: String) {
        _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
    }

    /// Writes `bytes` to `name` in the folder; its path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    public func read(_ name: String) -> String? {
        FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A whole file's bytes.
    public static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
