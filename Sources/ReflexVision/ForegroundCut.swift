import CVision
import ReflexCore

/// A person (or any object) cut from the background of a photograph, given a rectangle
/// around them: OpenCV's GrabCut. The bench's clips paste real people cut this way over real
/// scenes.
public enum ForegroundCut {
    /// Which pixels of `rgb` (3 bytes a pixel, `width` x `height`, rows packed) are the object
    /// inside `rectangle`: true for the object's.
    public static func mask(rgb: [UInt8], width: Int, height: Int, inside rectangle: PixelRect,
                            iterations: Int = 5) throws(PersonDetector.Failure) -> [Bool] {
        guard rgb.count >= width * height * 3 else { throw PersonDetector.Failure(description: "the picture is smaller than it says") }
        var labels = [UInt8](repeating: 0, count: width * height)
        var message = [CChar](repeating: 0, count: 512)
        let status = rgb.withUnsafeBufferPointer { pixels in
            reflex_cut_out(pixels.baseAddress!, Int32(width), Int32(height), Int32(width * 3), Int32(rectangle.x), Int32(rectangle.y),
                           Int32(rectangle.width), Int32(rectangle.height), Int32(iterations), &labels, &message, message.count)
        }
        guard status == 0 else { throw PersonDetector.Failure(description: "cannot cut out: \(PersonDetector.text(message))") }
        return labels.map { $0 != 0 }
    }
}
