import Foundation

/// QR codes read from a picture by a real reader (zbar's zbarimg, Debian's zbar-tools): what a
/// phone's camera would find on the camera's screen.
public enum QRReader {
    /// The texts of every code in a greyscale picture of `width`x`height`, `grey(x, y)` 0…255,
    /// as zbarimg reads them (empty: none found).
    public static func read(width: Int, height: Int, grey: (Int, Int) -> UInt8) throws -> [String] {
        var bytes = Array("P5\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height)
        for y in 0..<height {
            for x in 0..<width { bytes.append(grey(x, y)) }
        }
        let folder = TemporaryFolder()
        let path = folder.path + "/picture.pgm"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try ProgramRun(["zbarimg", "--raw", "-q", path])
        // (zbarimg ends 4 when it found nothing.)
        guard run.status == 0 || run.status == 4 else {
            throw QRReaderFailure(description: "zbarimg ended \(run.status): \(run.errors)")
        }
        return run.output.split(separator: "\n").map(String.init).sorted()
    }
}

public struct QRReaderFailure: Error, CustomStringConvertible {
    public let description: String
}
