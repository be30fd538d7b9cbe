/// A Huffman code for a JPEG's DHT segment, made for the symbols' own counts (ITU T.81
/// Annex K.2): code lengths by merging the two rarest, limited to 16 bits (K.3), and the
/// canonical codes of Annex C. A code is never all ones (a reserved symbol takes that place),
/// as T.81 requires.
struct JPEGHuffmanCode {
    /// How many codes have each length, 1…16 bits (`counts[0]` is 1 bit).
    private(set) var lengthCounts = [UInt8](repeating: 0, count: 16)
    /// The symbols, shortest code first.
    private(set) var symbols: [UInt8] = []
    /// Each symbol's code and its length in bits (length 0: the symbol never occurs).
    private(set) var codes: [UInt16]
    private(set) var lengths: [UInt8]

    /// `frequencies[s]`: how often symbol `s` occurs (symbols 0…255).
    init(frequencies: [Int]) {
        let count = frequencies.count
        precondition(count > 0 && count <= 256, "JPEG Huffman symbols are bytes")
        codes = [UInt16](repeating: 0, count: count)
        lengths = [UInt8](repeating: 0, count: count)
        let sizes = JPEGHuffmanCode.codeSizes(frequencies)
        // Codes of each length, longest first, then brought within 16 bits (K.3).
        var bits = [Int](repeating: 0, count: 34)
        for size in sizes where size > 0 { bits[size] += 1 }
        var longest = 33
        while longest > 16 {
            if bits[longest] > 0 {
                // Two codes of the longest length become one a bit shorter and its sibling
                // one a bit longer than a code taken from a shorter length.
                var shorter = longest - 2
                while bits[shorter] == 0 { shorter -= 1 }
                bits[longest] -= 2
                bits[longest - 1] += 1
                bits[shorter + 1] += 2
                bits[shorter] -= 1
            } else {
                longest -= 1
            }
        }
        // The reserved symbol had the (longest) all-ones code: drop it.
        var last = 16
        while last > 0 && bits[last] == 0 { last -= 1 }
        if last > 0 { bits[last] -= 1 }
        for length in 1...16 { lengthCounts[length - 1] = UInt8(bits[length]) }
        // Symbols by code size, then by value (the reserved one, `count`, last and left out).
        let order = (0..<count).filter { sizes[$0] > 0 }.sorted { (sizes[$0], $0) < (sizes[$1], $1) }
        symbols = order.map { UInt8($0) }
        // Canonical codes from the (limited) counts of each length.
        var code = 0, index = 0
        for length in 1...16 {
            for _ in 0..<bits[length] {
                codes[order[index]] = UInt16(code)
                lengths[order[index]] = UInt8(length)
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    /// T.81 K.2's code sizes: the two rarest (the reserved symbol, `count`, once) merged
    /// until one is left; each merge adds a bit to every symbol under both.
    private static func codeSizes(_ frequencies: [Int]) -> [Int] {
        let count = frequencies.count
        var frequency = frequencies + [1]
        var size = [Int](repeating: 0, count: count + 1)
        var next = [Int](repeating: -1, count: count + 1)
        while true {
            // The rarest, and the next rarest; on a tie the larger symbol (as K.2 does).
            var first = -1, second = -1
            for symbol in 0...count where frequency[symbol] > 0 {
                if first < 0 || frequency[symbol] <= frequency[first] {
                    second = first
                    first = symbol
                } else if second < 0 || frequency[symbol] <= frequency[second] {
                    second = symbol
                }
            }
            guard second >= 0 else { break }
            frequency[first] += frequency[second]
            frequency[second] = 0
            var symbol = first
            size[symbol] += 1
            while next[symbol] >= 0 { symbol = next[symbol]; size[symbol] += 1 }
            next[symbol] = second
            symbol = second
            size[symbol] += 1
            while next[symbol] >= 0 { symbol = next[symbol]; size[symbol] += 1 }
        }
        return size
    }
}
