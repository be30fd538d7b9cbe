import ArgumentParser
import ReflexCore
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// `reflex review --list`: what review shows of a card, for scripts and tests: its items
/// newest first, across DCF folders (another camera's included), a RAW+JPEG pair as one.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review", abstract: "List the card's photos and movies as review shows them.")

    @Flag(help: "Print the card's items, newest first: number, format, date, files, protection.") var list = false
    @Flag(help: "With --list: as JSON, an object an item.") var json = false
    @Option(name: [.customShort("o"), .long], help: "The card's folder (default: /media/card).") var card: String?

    func run() throws {
        guard list else { throw ValidationError("review itself is on the camera's screen; here: reflex review --list [--json]") }
        let items = CardCatalog.items(onCardAt: card ?? "/media/card")
        if json {
            print(JSONText.array(items.map(Self.json)).text)
        } else {
            for item in items {
                print([item.name, item.format, Self.localTime(item.modified), item.files.map(\.name).joined(separator: " ")]
                    .joined(separator: "  ") + (item.isProtected ? "  protected" : ""))
            }
        }
    }

    static func json(_ item: ReviewItem) -> JSONText {
        .object([("number", .string(item.name)), ("folder", .string(item.folder)), ("format", .string(item.format)),
                 ("date", .string(localTime(item.modified))), ("protected", .bool(item.isProtected)),
                 ("files", .array(item.files.map { file in
                     .object([("name", .string(file.name)), ("kind", .string(file.kind.rawValue)),
                              ("bytes", .number(Double(file.bytes))), ("readOnly", .bool(file.readOnly))])
                 }))])
    }

    /// "2026-11-26 10:12:03" in the camera's time zone.
    static func localTime(_ seconds: Int64) -> String {
        var whole = time_t(seconds), parts = tm()
        localtime_r(&whole, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
