import ReflexCore

/// A real person cut from a picture: colour and coverage (0…1), `width` × `height`, pasted into
/// the bench's clips at any size.
struct PersonCutOut {
    var width: Int, height: Int
    var rgb: [UInt8]
    var alpha: [Float]

    /// The pixels of `mask` (`maskWidth` a row) in its bounding box, their colours from
    /// `rgb` (3 bytes a pixel, same size); nil if the mask is empty.
    init?(rgb source: [UInt8], mask: [Bool], maskWidth: Int) {
        let maskHeight = mask.count / maskWidth
        var left = maskWidth, right = -1, top = maskHeight, bottom = -1
        for y in 0..<maskHeight { for x in 0..<maskWidth where mask[y * maskWidth + x] {
            (left, right, top, bottom) = (min(left, x), max(right, x), min(top, y), max(bottom, y))
        } }
        guard right > left, bottom > top else { return nil }
        width = right - left + 1
        height = bottom - top + 1
        rgb = [UInt8](repeating: 0, count: width * height * 3)
        alpha = [Float](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width {
            let sx = left + x, sy = top + y
            alpha[y * width + x] = mask[sy * maskWidth + sx] ? 1 : 0
            for channel in 0..<3 { rgb[(y * width + x) * 3 + channel] = source[(sy * maskWidth + sx) * 3 + channel] }
        } }
    }

    var aspect: Double { Double(width) / Double(height) }

    /// Pasted into `picture` (XRGB, `pictureWidth` × `pictureHeight`) scaled into `box`
    /// (nearest sample), mirrored when facing the other way; `tinted` gives the person a red
    /// jacket, so two people made of one are two.
    func paste(into picture: inout [UInt32], pictureWidth: Int, pictureHeight: Int, box: PixelRect, mirrored: Bool, tinted: Bool) {
        guard box.width > 0, box.height > 0 else { return }
        let rows = max(box.y, 0)..<min(box.y + box.height, pictureHeight)
        let columns = max(box.x, 0)..<min(box.x + box.width, pictureWidth)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        for y in rows {
            let sy = min((y - box.y) * height / box.height, height - 1)
            for x in columns {
                var sx = min((x - box.x) * width / box.width, width - 1)
                if mirrored { sx = width - 1 - sx }
                let source = sy * width + sx
                guard alpha[source] > 0 else { continue }
                var r = Double(rgb[source * 3]), g = Double(rgb[source * 3 + 1]), b = Double(rgb[source * 3 + 2])
                if tinted { (r, g, b) = (min(r * 1.8 + 40, 255), g * 0.7, b * 0.7) }
                picture[y * pictureWidth + x] = ClipWriter.xrgb(r, g, b)
            }
        }
    }

    /// The largest 4-connected piece of `mask` (`width` a row): the person, not a speck.
    static func largestPiece(of mask: [Bool], width: Int, height: Int) -> [Bool] {
        var label = [Int](repeating: 0, count: mask.count)
        var sizes = [0]
        for start in mask.indices where mask[start] && label[start] == 0 {
            sizes.append(0)
            let piece = sizes.count - 1
            var stack = [start]
            label[start] = piece
            while let index = stack.popLast() {
                sizes[piece] += 1
                let x = index % width, y = index / width
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < width && ny < height && mask[ny * width + nx] && label[ny * width + nx] == 0 {
                    label[ny * width + nx] = piece
                    stack.append(ny * width + nx)
                }
            }
        }
        guard let largest = sizes.indices.dropFirst().max(by: { sizes[$0] < sizes[$1] }) else { return mask }
        return label.map { $0 == largest }
    }
}
