import ReflexCore

/// How sharp a raw frame is in a box, for contrast autofocus: the mean absolute difference
/// between samples two apart along a row (the same colour in any 2×2 colour filter), over the
/// mean level above black. A ratio, so Auto exposure moving the level does not move it; every
/// other row pair, so a box costs a few thousand reads.
public enum FocusMeasure {
    public static func contrast(_ frame: UnsafeRawPointer, layout: RawLayout, box: PixelRect, blackLevel: Int) -> Double {
        let left = max(box.x, 0), right = min(box.x + box.width, layout.width) - 2
        let top = max(box.y, 0), bottom = min(box.y + box.height, layout.height)
        guard right > left, bottom > top else { return 0 }
        let packing = layout.format.packing
        var differences = 0, levels = 0
        var row = top
        while row < bottom {
            let line = frame + row * layout.bytesPerLine
            var previous = Int(RawUnpacking.sample(line, packing: packing, at: left))
            var x = left
            while x < right {
                let next = Int(RawUnpacking.sample(line, packing: packing, at: x + 2))
                differences += abs(next - previous)
                levels += max(previous - blackLevel, 0)
                previous = next
                x += 2
            }
            // Both rows of a CFA pair, then skip a pair.
            row += row % 2 == 0 ? 1 : 3
        }
        return levels > 0 ? Double(differences) / Double(levels) : 0
    }
}
