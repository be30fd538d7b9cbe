/// The card as PTP objects, each with a handle a host keeps for as long as the card is in:
/// DCIM, each DCF folder in it, and each photo or movie file of the review catalogue's
/// items (a RAW+JPEG pair is two objects, as cameras present them). A handle is never given
/// to another file; the camera's sidecars stay hidden. Pure: the listing comes from the card.
public struct PTPObjectTable: Sendable {
    /// One object: a folder or a file, where it is, and what the card said of it.
    public struct Object: Sendable, Equatable {
        public let handle: UInt32
        /// "DCIM", "DCIM/100REFLX" or "DCIM/100REFLX/RFLX0001.JPG".
        public let path: String
        /// The folder's handle; 0 for DCIM, at the storage's root.
        public let parent: UInt32
        /// nil for a folder.
        public let file: ReviewItem.File?

        public var isFolder: Bool { file == nil }
        public var name: String { String(path.split(separator: "/").last ?? "") }
        public var format: PTPObjectFormat { file.map { PTPObjectFormat(fileName: $0.name) } ?? .association }
    }

    /// What changed since the last listing: ObjectAdded and ObjectRemoved events to send.
    public struct Changes: Sendable, Equatable {
        public var added: [UInt32] = []
        public var removed: [UInt32] = []

        public init() {}
    }

    /// GetObjectHandles's parent for the storage's root (MTP; PTP's 0 asks for every object).
    public static let root: UInt32 = 0xFFFF_FFFF

    private var byPath: [String: Object] = [:]
    private var byHandle: [UInt32: Object] = [:]
    private var nextHandle: UInt32 = 1

    public init() {}

    public var count: Int { byHandle.count }

    public func object(_ handle: UInt32) -> Object? { byHandle[handle] }

    /// Takes the card's items as now listed (nil: no card, every object gone). Files and
    /// folders still there keep their handles; new ones get new handles, in the order a host
    /// should hear of them (folders before their files, older files first).
    public mutating func update(_ items: [ReviewItem]?) -> Changes {
        var listed: [(path: String, parent: String?, file: ReviewItem.File?)] = []
        if let items, !items.isEmpty {
            listed.append(("DCIM", nil, nil))
            for folder in Set(items.map(\.folder)).sorted() { listed.append(("DCIM/" + folder, "DCIM", nil)) }
            for item in items.reversed() {
                for file in item.files where file.kind != .other {
                    listed.append(("DCIM/\(item.folder)/\(file.name)", "DCIM/" + item.folder, file))
                }
            }
        }
        var changes = Changes()
        let present = Set(listed.map(\.path))
        for (path, object) in byPath where !present.contains(path) {
            changes.removed.append(object.handle)
            byPath[path] = nil
            byHandle[object.handle] = nil
        }
        changes.removed.sort()
        for entry in listed {
            let parent = entry.parent.flatMap { byPath[$0]?.handle } ?? 0
            if let known = byPath[entry.path] {
                // The same file, perhaps protected or grown since: what the card says now.
                let object = Object(handle: known.handle, path: entry.path, parent: parent, file: entry.file)
                (byPath[entry.path], byHandle[known.handle]) = (object, object)
                continue
            }
            let object = Object(handle: nextHandle, path: entry.path, parent: parent, file: entry.file)
            nextHandle += 1
            (byPath[entry.path], byHandle[object.handle]) = (object, object)
            changes.added.append(object.handle)
        }
        return changes
    }

    /// GetObjectHandles: every object (`parent` 0), those at the root (`root`), or a folder's;
    /// `format` 0 for any. nil when `parent` is no folder of the card.
    public func handles(format: UInt16, parent: UInt32) -> [UInt32]? {
        if parent != 0, parent != Self.root {
            guard let folder = byHandle[parent], folder.isFolder else { return nil }
        }
        return byHandle.values.filter { object in
            (format == 0 || object.format.rawValue == format)
                && (parent == 0 || object.parent == (parent == Self.root ? 0 : parent))
        }.map(\.handle).sorted()
    }
}
