import ReflexCore

/// The figures a soak takes each minute.
struct SoakMinute {
    let minute: Int
    /// The realtime loop's frame time over its last frames (its ring: a minute at 60 fps), ms.
    let p99: Double
    let maximum: Double
    /// Vblanks the display missed during this minute.
    let missedVblanks: Int
    /// Heap allocations in the loop's frames during this minute.
    let loopAllocations: Int
    let process: ProcessFigures
    /// Photos waiting for the photo thread.
    let saveQueue: Int
    let cardFreeMegabytes: Int64
    let photosSaved: Int

    static let heading = "  minute  loop p99 ms  max ms  missed  allocs  RSS MB  anon MB  threads  fds  save queue  card free MB  photos saved"

    var row: String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        return pad(String(minute), 8) + pad(Formatting.fixed(p99, 2), 13) + pad(Formatting.fixed(maximum, 2), 8)
            + pad(String(missedVblanks), 8) + pad(String(loopAllocations), 8) + pad(Formatting.fixed(Double(process.residentBytes) / 1_048_576, 1), 8)
            + pad(Formatting.fixed(Double(process.anonymousBytes) / 1_048_576, 1), 9)
            + pad(String(process.threads), 9) + pad(String(process.descriptors), 5) + pad(String(saveQueue), 12)
            + pad(String(cardFreeMegabytes), 14) + pad(String(photosSaved), 14)
    }
}
