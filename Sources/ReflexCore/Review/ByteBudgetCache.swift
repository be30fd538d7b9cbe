/// Values kept within a budget of bytes, the least recently used given up first: review's
/// decoded pictures (the one shown, its neighbours decoded ahead, the last few seen), so
/// browsing a thousand photos holds a few megabytes, not a thousand pictures. Not shared
/// between threads: its owner (the review's worker) is the only one to touch it.
public struct ByteBudgetCache<Value> {
    public let budgetBytes: Int
    /// Bytes held now (never above the budget, but for one value larger than it alone).
    public private(set) var bytesHeld = 0
    private var entries: [(key: String, value: Value, bytes: Int)] = []

    public init(budgetBytes: Int) { self.budgetBytes = budgetBytes }

    public var count: Int { entries.count }

    /// The value for `key`, now the most recently used.
    public mutating func value(for key: String) -> Value? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.value
    }

    /// Keeps `value` (of `bytes`) for `key`, giving up the least recently used until it fits.
    public mutating func store(_ value: Value, bytes: Int, for key: String) {
        remove(key)
        entries.append((key, value, bytes))
        bytesHeld += bytes
        while bytesHeld > budgetBytes && entries.count > 1 {
            bytesHeld -= entries.removeFirst().bytes
        }
    }

    /// Forgets `key` (a deleted item).
    public mutating func remove(_ key: String) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        bytesHeld -= entries.remove(at: index).bytes
    }
}
