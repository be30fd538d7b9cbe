/// What a request to the camera's remote asks for, by its path (the query, if any, aside).
/// Only names the camera makes are reachable: the page's own files by a plain name, a card's
/// files by a DCF folder and file name; anything else (`..`, `%`-escapes, hidden names, a
/// folder that is not DCF's) is not found.
public enum RemoteRoute: Sendable, Equatable {
    /// One of the page's files (`index.html` for `/`).
    case page(String)
    /// POST a pairing code; answered with the token's cookie.
    case pair
    /// The HUD's values and the remote's state, as JSON.
    case status
    /// The card's items, newest first, as JSON.
    case items
    /// A file of the card (GET, HEAD, DELETE).
    case file(folder: String, name: String)
    /// A file's own small picture (its EXIF thumbnail, or a DNG's preview), as JPEG.
    case thumbnail(folder: String, name: String)
    /// POST a control (shutter, record, a dial, a setting) as JSON.
    case control
    /// The live view and the status as they change, over a WebSocket.
    case live
    case notFound

    public init(path fullPath: String) {
        let path = fullPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch parts.first {
        case nil: self = .notFound
        case "" where parts.count == 1: self = .page("index.html")
        case "api" where parts.count == 2:
            switch parts[1] {
            case "pair": self = .pair
            case "status": self = .status
            case "items": self = .items
            case "control": self = .control
            default: self = .notFound
            }
        case "live" where parts.count == 1: self = .live
        case "card" where parts.count == 3, "thumb" where parts.count == 3:
            guard DCFName.folderNumber(parts[1]) != nil, DCFName.file(parts[2]) != nil else {
                self = .notFound
                return
            }
            self = parts[0] == "card" ? .file(folder: parts[1], name: parts[2]) : .thumbnail(folder: parts[1], name: parts[2])
        case let name? where parts.count == 1 && Self.isPageName(name): self = .page(name)
        default: self = .notFound
        }
    }

    /// Letters, digits, `-`, `_` and one dot before an extension: the page's file names
    /// (`remote.js`), nothing else.
    static func isPageName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.last != UInt8(ascii: "."),
              name.utf8.count <= 64, name.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 1 else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".")
        }
    }
}
