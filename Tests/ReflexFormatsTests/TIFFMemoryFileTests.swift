import Testing
@testable import ReflexFormats

/// libtiff's own words reach the error a photo fails with: its handlers are given a C
/// `va_list`, formatted in C (CTIFF's shim) on every architecture.
@Suite struct TIFFMemoryFileTests {
    @Test func libtiffsErrorIsInTheMessage() throws {
        let file = try TIFFMemoryFile(expectedSize: 1024)
        var byte: UInt8 = 0
        let error = #expect(throws: PhotoEncodingError.self) { try file.writeStrip(0, &byte, byteCount: 1) }
        // "cannot write strip 0 (libtiff: TIFFWriteEncodedStrip: Must set \"ImageWidth\" before writing data)"
        #expect(error?.message.hasPrefix("cannot write strip 0 (libtiff: ") == true)
        #expect(error?.message.contains("ImageWidth") == true)
    }
}
