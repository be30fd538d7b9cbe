import ArgumentParser
import ReflexCore
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex review --list`: what review shows of a card, for scripts and tests: its items
/// newest first, across DCF folders (another camera's included), a RAW+JPEG pair as one.
/// `--delete`, `--protect` and `--unprotect` do to an item what review's buttons do, with the
/// same care (`CardEraser`, `CardProtection`).
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review", abstract: "List, delete or protect the card's photos and movies as review does.")

    @Flag(help: "Print the card's items, newest first: number, format, date, files, protection.") var list = false
    @Flag(help: "With --list: as JSON, an object an item.") var json = false
    @Option(help: "Delete an item (both files of a pair), e.g. 100REFLX/RFLX0042; a protected one is refused.")
    var delete: String?
    @Option(help: "Protect an item (its files read-only: delete refuses it).") var protect: String?
    @Option(help: "Take an item's protection off.") var unprotect: String?
    @Option(name: [.customShort("o"), .long], help: "The card's folder (default: /media/card).") var card: String?

    func run() throws {
        let root = card ?? "/media/card"
        if let name = delete ?? protect ?? unprotect {
            guard let item = CardCatalog.items(onCardAt: root).first(where: { $0.name.uppercased() == name.uppercased() }) else {
                throw ValidationError("no item \(name) on the card at \(root) (reflex review --list names them)")
            }
            do {
                if delete != nil {
                    try CardEraser.delete(item, onCardAt: root)
                    print("deleted \(item.name): " + item.files.map(\.name).joined(separator: " "))
                } else {
                    try CardProtection.setProtected(item, protect != nil, onCardAt: root)
                    print((protect != nil ? "protected " : "unprotected ") + item.name)
                }
            } catch {
                log("review: \(error)")
                throw ExitCode(1)
            }
            return
        }
        guard list else { throw ValidationError("review itself is on the camera's screen; here: reflex review --list [--json]") }
        let items = CardCatalog.items(onCardAt: root)
        if json {
            print(JSONText.array(items.map(Self.json)).text)
        } else {
            for item in items {
                print([item.name, item.format, LocalTime.text(item.modified), item.files.map(\.name).joined(separator: " ")]
                    .joined(separator: "  ") + (item.isProtected ? "  protected" : ""))
            }
        }
    }

    static func json(_ item: ReviewItem) -> JSONText {
        .object([("number", .string(item.name)), ("folder", .string(item.folder)), ("format", .string(item.format)),
                 ("date", .string(LocalTime.text(item.modified))), ("protected", .bool(item.isProtected)),
                 ("files", .array(item.files.map { file in
                     .object([("name", .string(file.name)), ("kind", .string(file.kind.rawValue)),
                              ("bytes", .number(Double(file.bytes))), ("readOnly", .bool(file.readOnly))])
                 }))])
    }
}
