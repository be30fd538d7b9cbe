/// A card's review items from what its DCIM folder lists (pure: the listing comes from the
/// card, or from a test): every DCF folder, ours or another camera's; in each, the DCF files
/// grouped by stem; an item kept if it has a photo or a movie; newest first.
public enum ReviewCatalog {
    /// One DCF folder's files as listed: name, size, time, read-only.
    public struct Listing: Sendable {
        public var folder: String
        public var files: [(name: String, bytes: Int64, modified: Int64, readOnly: Bool)]

        public init(folder: String, files: [(name: String, bytes: Int64, modified: Int64, readOnly: Bool)]) {
            (self.folder, self.files) = (folder, files)
        }
    }

    public static func items(_ listings: [Listing]) -> [ReviewItem] {
        var items: [ReviewItem] = []
        for listing in listings {
            guard let folderNumber = DCFName.folderNumber(listing.folder) else { continue }
            var byStem: [String: (number: Int, files: [ReviewItem.File])] = [:]
            for file in listing.files {
                guard let name = DCFName.file(file.name) else { continue }
                let entry = ReviewItem.File(name: file.name, kind: ReviewItem.Kind(extension: name.extension), bytes: file.bytes,
                                            modified: file.modified, readOnly: file.readOnly)
                byStem[name.stem, default: (name.number, [])].files.append(entry)
            }
            for (stem, found) in byStem where found.files.contains(where: { $0.kind != .other }) {
                items.append(ReviewItem(folder: listing.folder, folderNumber: folderNumber, stem: stem, number: found.number,
                                        files: found.files))
            }
        }
        return items.sorted(by: ReviewItem.isNewer)
    }
}
