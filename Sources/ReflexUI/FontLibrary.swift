#if canImport(Glibc)
import Glibc
#endif
import CCairo

/// Why the interface has no fonts, said plainly.
public struct FontError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// The three faces the interface draws with, loaded once from the Fonts folder through
/// FreeType (no fontconfig: the camera draws with exactly the files it ships).
public final class FontLibrary: @unchecked Sendable {
    public enum Face: CaseIterable, Sendable {
        /// Labels and messages.
        case label
        /// Titles, dial names, the mode toggle.
        case title
        /// The HUD's and the dials' values: monospaced, so digits never jitter.
        case digits

        var fileName: String {
            switch self {
            case .label: "Inter-Medium.otf"
            case .title: "Inter-SemiBold.otf"
            case .digits: "JetBrainsMono-SemiBold.ttf"
            }
        }
    }

    public let folder: String
    private var library: FT_Library?
    private var cairoFaces: [OpaquePointer] = []

    public init(folder: String) throws(FontError) {
        self.folder = folder
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw FontError(description: "FreeType cannot start")
        }
        for face in Face.allCases {
            let path = folder + "/" + face.fileName
            var ftFace: FT_Face?
            guard FT_New_Face(library, path, 0, &ftFace) == 0, let ftFace else {
                throw FontError(description: "cannot load the font \(path)")
            }
            // The FreeType faces live as long as the process: cairo may keep glyphs of them
            // cached past any point where we could safely free them.
            cairoFaces.append(cairo_ft_font_face_create_for_ft_face(ftFace, 0))
        }
    }

    deinit {
        cairoFaces.forEach { cairo_font_face_destroy($0) }
    }

    func cairoFace(_ face: Face) -> OpaquePointer {
        cairoFaces[Face.allCases.firstIndex(of: face)!]
    }

    /// The Fonts folder: `$REFLEX_FONTS_DIR`, the image's /usr/share/reflex/fonts, or a
    /// `Fonts` folder above `executablePath` (a source checkout's .build/<config>/reflex).
    public static func locate(environment: String?, executablePath: String) -> String? {
        var candidates: [String] = []
        if let environment, !environment.isEmpty { candidates.append(environment) }
        candidates.append("/usr/share/reflex/fonts")
        var folder = executablePath
        for _ in 0..<6 {
            guard let slash = folder.lastIndex(of: "/") else { break }
            folder = String(folder[..<slash])
            candidates.append((folder.isEmpty ? "" : folder) + "/Fonts")
        }
        return candidates.first { access($0 + "/" + Face.label.fileName, R_OK) == 0 }
    }
}
