import ReflexCore
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The numbers photos and movies take, one sequence for both (`RFLX0007.JPG`, then
/// `RFLX0008.MP4`), from the photo thread and the movie's at once: each number comes after
/// the counter kept with the settings, the card's highest and the last one given, and is
/// written down before its file, so no number is used twice.
public final class CardNumbering: Sendable {
    public let card: PhotoCard
    private let counter: PhotoCounter
    private let last = Mutex<PhotoNumber?>(nil)

    public init(card: PhotoCard, counter: PhotoCounter) {
        (self.card, self.counter) = (card, counter)
    }

    /// The next number; ENOSPC when 999REFLX/RFLX9999 was the last.
    public func next() throws(SystemError) -> PhotoNumber {
        try last.withLock { last throws(SystemError) -> PhotoNumber in
            // (The card is read again each time: it may have been changed, or filled elsewhere.)
            let highest = [last, counter.load(), card.highestNumber()].compactMap { $0 }.max()
            guard let number = highest == nil ? PhotoNumber.first : highest!.next else {
                throw SystemError("number", path: card.dcim, code: ENOSPC)
            }
            try counter.save(number)
            last = number
            return number
        }
    }
}
