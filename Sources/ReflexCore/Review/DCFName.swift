/// The names the DCF standard gives a camera's folders and files, whichever camera wrote them:
/// a folder `NNNXXXXX` (a number 100–999, then five letters, digits or underscores:
/// `100REFLX`, `101CANON`) and a file `XXXXNNNN.EXT` (four such characters, then a number
/// 0001–9999: `RFLX0042.JPG`, `IMG_0815.CR2`). Read without regard to case: a FAT card may be
/// mounted to show its short names in lower case.
public enum DCFName {
    /// A DCF folder's number ("101CANON" → 101).
    public static func folderNumber(_ name: String) -> Int? {
        let characters = Array(name.uppercased().utf8)
        guard characters.count == 8, characters[3...].allSatisfy(isFreeCharacter),
              let number = digits(characters[0..<3]), (100...999).contains(number) else { return nil }
        return number
    }

    /// A DCF file's stem, number and extension ("IMG_0815.CR2" → ("IMG_0815", 815, "CR2")),
    /// the stem and extension in upper case; nil for anything else (a hidden or temporary file).
    public static func file(_ name: String) -> (stem: String, number: Int, extension: String)? {
        let upper = name.uppercased()
        guard let dot = upper.firstIndex(of: ".") else { return nil }
        let stem = Array(upper[..<dot].utf8), fileExtension = String(upper[upper.index(after: dot)...])
        guard stem.count == 8, stem[0..<4].allSatisfy(isFreeCharacter), !fileExtension.isEmpty,
              fileExtension.utf8.allSatisfy(isFreeCharacter), let number = digits(stem[4..<8]), (1...9999).contains(number)
        else { return nil }
        return (String(decoding: stem, as: UTF8.self), number, fileExtension)
    }

    /// A–Z, 0–9 or underscore: what DCF allows in the free part of a name.
    private static func isFreeCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
