import CVision
import ReflexCore

/// How a box moved from one grey picture to the next, by optical flow: corners picked inside
/// it (Shi-Tomasi) are followed with pyramidal Lucas-Kanade, and the box moves by their
/// median motion (robust to a few points that slid onto the background). Between two
/// detections this moves the subject's box at the frame rate.
public final class BoxFlow {
    public static let cornersWanted = 40
    /// Fewer corners followed than this: no answer (a plain shirt, a subject too small).
    public static let fewestFollowed = 5

    private var points = [Float](repeating: 0, count: BoxFlow.cornersWanted * 2)
    private var moved = [Float](repeating: 0, count: BoxFlow.cornersWanted * 2)
    private var found = [UInt8](repeating: 0, count: BoxFlow.cornersWanted)
    private var message = [CChar](repeating: 0, count: 256)

    public init() {}

    /// Where `box` (fractions of the picture) went from `previous` to `next` (grey, `width` ×
    /// `height`, rows `width` apart); nil when too few points could be followed.
    public func follow(_ box: FractionalBox, from previous: UnsafePointer<UInt8>, to next: UnsafePointer<UInt8>,
                       width: Int, height: Int) -> FractionalBox? {
        let x = Int(box.x * Double(width)), y = Int(box.y * Double(height))
        let w = Int(box.width * Double(width)), h = Int(box.height * Double(height))
        let count = Int(reflex_flow_corners(previous, Int32(width), Int32(height), Int32(width), Int32(x), Int32(y), Int32(w),
                                            Int32(h), &points, Int32(BoxFlow.cornersWanted), &message, message.count))
        guard count >= BoxFlow.fewestFollowed else { return nil }
        guard reflex_flow_track(previous, next, Int32(width), Int32(height), Int32(width), points, Int32(count), &moved, &found,
                                &message, message.count) == 0 else { return nil }
        var dx: [Float] = [], dy: [Float] = []
        for i in 0..<count where found[i] != 0 {
            dx.append(moved[2 * i] - points[2 * i])
            dy.append(moved[2 * i + 1] - points[2 * i + 1])
        }
        guard dx.count >= BoxFlow.fewestFollowed else { return nil }
        func median(_ values: [Float]) -> Double { Double(values.sorted()[values.count / 2]) }
        return FractionalBox(x: box.x + median(dx) / Double(width), y: box.y + median(dy) / Double(height),
                        width: box.width, height: box.height)
    }
}
