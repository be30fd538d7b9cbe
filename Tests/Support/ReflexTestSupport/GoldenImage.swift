import ReflexHardware
#if canImport(Glibc)
import Glibc
#endif

/// Reference PNGs in Tests/ReflexUITests/Golden. A rendering matches when at most 16 pixels
/// have a channel more than 3 levels off: room for a different pixman's rounding, not for a
/// missing glyph or a moved element. On a mismatch the actual image and a diff
/// (differing pixels in red over a dimmed copy) go to .build/golden-failures/.
/// `REFLEX_UPDATE_GOLDEN=1 swift test --filter …` rewrites the references; a missing
/// reference is a failure, never silently created. (The interface's goldens and review's
/// index, which the runtime's tests render, keep one folder.)
public enum GoldenImage {
    public static let repository: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()
    static let folder = repository + "/Tests/ReflexUITests/Golden"
    static let failures = repository + "/.build/golden-failures"
    static let channelTolerance: UInt32 = 3
    static let pixelTolerance = 16

    public struct Comparison: CustomStringConvertible {
        public let differing: Int
        public let total: Int
        public let description: String
        public var matches: Bool { differing <= GoldenImage.pixelTolerance }
    }

    public static func compare(_ name: String, pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) -> Comparison {
        let path = folder + "/" + name + ".png"
        if getenv("REFLEX_UPDATE_GOLDEN") != nil {
            try! PNGImage.write(pixels, width: width, height: height, stride: stride, to: path)
        }
        guard let reference = try? PNGImage.read(path) else {
            writeFailure(name, pixels: pixels, width: width, height: height, stride: stride, diff: nil)
            return Comparison(differing: width * height, total: width * height,
                              description: "\(name): no reference image at \(path) (REFLEX_UPDATE_GOLDEN=1 makes one)")
        }
        guard reference.width == width, reference.height == height else {
            return Comparison(differing: width * height, total: width * height,
                              description: "\(name): reference is \(reference.width)x\(reference.height), rendered \(width)x\(height)")
        }
        var differing = 0
        var diff = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let a = pixels[y * stride + x], b = reference.pixels[y * width + x]
                var worst: UInt32 = 0
                for shift: UInt32 in [0, 8, 16] {
                    let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
                    worst = max(worst, ca > cb ? ca - cb : cb - ca)
                }
                if worst > channelTolerance {
                    differing += 1
                    diff[y * width + x] = 0xFFFF_0000
                } else {
                    diff[y * width + x] = 0xFF00_0000 | ((a >> 2) & 0x003F_3F3F)
                }
            }
        }
        let comparison = Comparison(differing: differing, total: width * height,
                                    description: "\(name): \(differing) of \(width * height) pixels differ by more than \(channelTolerance) levels")
        if !comparison.matches {
            writeFailure(name, pixels: pixels, width: width, height: height, stride: stride, diff: &diff)
        }
        return comparison
    }

    private static func writeFailure(_ name: String, pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int,
                                     stride: Int, diff: UnsafeMutablePointer<UInt32>?) {
        mkdir(repository + "/.build", 0o755)
        mkdir(failures, 0o755)
        try? PNGImage.write(pixels, width: width, height: height, stride: stride, to: failures + "/" + name + ".actual.png")
        if let diff {
            try? PNGImage.write(diff, width: width, height: height, stride: width, to: failures + "/" + name + ".diff.png")
        }
    }
}
