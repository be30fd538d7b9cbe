import CCairo
import ReflexCore

/// The marks on the index's cells, so a photographer scrolling a card sees what each item is
/// without opening it: the format where it is more than a JPEG ("RAW", "RAW+JPEG", a movie's
/// play mark), in the bottom-left corner, and a padlock in the top-right on a protected item.
/// Drawn once in the camera's visual language, then laid over each cell by the review thread.
public final class IndexBadges: @unchecked Sendable {
    public enum Kind: CaseIterable, Sendable { case raw, rawAndJPEG, movie, locked }

    private let canvases: [CairoCanvas]
    /// Space between a badge and its cell's edge.
    public let inset: Int

    public init(fonts: FontLibrary, scale: Double) {
        let s = scale
        inset = Int((6 * s).rounded())
        canvases = Kind.allCases.map { kind in
            let height = (24 * s).rounded()
            let label: String? = switch kind {
            case .raw: "RAW"
            case .rawAndJPEG: "RAW+JPEG"
            case .movie: "MOVIE"
            case .locked: nil
            }
            // (The width from the label's own: a canvas to measure it first.)
            let measure = CairoCanvas(width: 1, height: 1)
            let probe = Pen(measure, fonts: fonts)
            probe.font(.label, size: 13 * s)
            let textWidth = label.map { probe.textWidth($0) } ?? 0
            let playWidth = kind == .movie ? 14 * s : 0
            let width = kind == .locked ? height : (textWidth + playWidth + 14 * s).rounded()
            let canvas = CairoCanvas(width: Int(width), height: Int(height))
            let pen = Pen(canvas, fonts: fonts)
            pen.roundedRect(0, 0, width, height, radius: 5 * s)
            pen.fill(Palette.surface)
            if kind == .locked {
                pen.padlock(x: (width - 18 * s) / 2, middleY: height / 2 - 1 * s, scale: s, Palette.accent)
            } else {
                if kind == .movie {
                    // A play mark before the label.
                    cairo_move_to(pen.context, 7 * s, height / 2 - 5 * s)
                    cairo_line_to(pen.context, 15 * s, height / 2)
                    cairo_line_to(pen.context, 7 * s, height / 2 + 5 * s)
                    cairo_close_path(pen.context)
                    pen.fill(Palette.text)
                }
                pen.font(.label, size: 13 * s)
                pen.text(label!, x: 7 * s + playWidth, middleY: height / 2, Palette.text)
            }
            canvas.finish()
            return canvas
        }
    }

    /// The badges an item gets: its format's (none for a JPEG alone) and the padlock.
    public static func kinds(format: String, isProtected: Bool) -> [Kind] {
        var kinds: [Kind] = []
        switch format {
        case "RAW": kinds.append(.raw)
        case "RAW+JPEG": kinds.append(.rawAndJPEG)
        case "MOVIE": kinds.append(.movie)
        default: break
        }
        if isProtected { kinds.append(.locked) }
        return kinds
    }

    public func size(of kind: Kind) -> (width: Int, height: Int) {
        let canvas = canvases[Kind.allCases.firstIndex(of: kind)!]
        return (canvas.width, canvas.height)
    }

    /// `kind`'s badge in its corner of `cell`, blended over `panel` (XRGB, `width` × `height`,
    /// rows `width` apart) where it lies between rows `top` and `bottom` (the index's band).
    public func lay(_ kind: Kind, on cell: PixelRect, into panel: UnsafeMutablePointer<UInt32>, width: Int,
                    top: Int, bottom: Int) {
        let canvas = canvases[Kind.allCases.firstIndex(of: kind)!]
        let x = kind == .locked ? cell.x + cell.width - inset - canvas.width : cell.x + inset
        let y = kind == .locked ? cell.y + inset : cell.y + cell.height - inset - canvas.height
        guard bottom > top else { return }
        PixelCompositing.blend(canvas.pixels, sourceStride: canvas.stride, width: canvas.width, height: canvas.height,
                               into: panel + top * width, destinationStride: width, destinationWidth: width,
                               destinationHeight: bottom - top, x: x, y: y - top, opacity: 256)
    }
}
