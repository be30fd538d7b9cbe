import ReflexSystem
import ReflexUI
#if canImport(Glibc)
import Glibc
#endif

/// The interface's fonts for a bench that draws the screen: `$REFLEX_FONTS_DIR`, the
/// package's, or a clone's.
enum BenchFonts {
    static func folder() throws -> String {
        guard let folder = FontLibrary.locate(environment: getenv("REFLEX_FONTS_DIR").map { String(cString: $0) },
                                              executablePath: executablePath()) else {
            throw BenchError("no fonts found (set REFLEX_FONTS_DIR)")
        }
        return folder
    }
}
