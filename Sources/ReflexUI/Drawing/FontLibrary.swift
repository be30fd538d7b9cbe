#if canImport(Glibc)
import Glibc
#endif
import CCairo
import ReflexCore

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

    private var library: FT_Library?
    private var cairoFaces: [OpaquePointer] = []

    public init(folder: String) throws(FontError) {
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

    /// The Fonts folder, the first that holds the fonts of: `$REFLEX_FONTS_DIR`;
    /// `share/reflex/fonts` beside the binary's own folder, where the package installs them
    /// (/usr/bin/reflex → /usr/share/reflex/fonts, /opt/x/usr/bin/reflex →
    /// /opt/x/usr/share/reflex/fonts), whatever folder the camera is started from; a `Fonts`
    /// folder above the binary (a source checkout's .build/<config>/reflex). `executablePath` is
    /// the binary's real file (/proc/self/exe): a copy of it elsewhere finds no fonts, by design.
    public static func locate(environment: String?, executablePath: String) -> String? {
        var candidates: [String] = []
        if let environment, !environment.isEmpty { candidates.append(environment) }
        candidates += ResourceSearch.candidates(executablePath: executablePath, installed: "fonts", inRepository: "Fonts")
        return candidates.first { access($0 + "/" + Face.label.fileName, R_OK) == 0 }
    }
}
