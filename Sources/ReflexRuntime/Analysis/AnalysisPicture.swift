import ReflexCore
import ReflexISP

/// The analysis's own picture of a sensor frame: rendered by a preview ISP of its own (the
/// preview's parameters, its own tables), small (`longestSide`), as RGB for the detector and
/// grey for the optical flow, the grey picture before kept for the flow. Memory is made when
/// the frame's size changes, not a frame.
final class AnalysisPicture {
    /// Large enough that a person a twentieth of the frame high is still 18 pixels.
    static let longestSide = 640

    private(set) var width = 0
    private(set) var height = 0
    private(set) var rgb: [UInt8] = []
    private(set) var grey: [UInt8] = []
    private(set) var previousGrey: [UInt8] = []
    /// Whether `previousGrey` holds the frame before this one, of the same size.
    private(set) var hasPrevious = false
    /// The part of the zoom-1 picture the frame shows (the camera's own zoom, a longer lens:
    /// its middle).
    private(set) var extent = Framing.wholePicture
    private var xrgb: [UInt32] = []
    private var isp: PreviewISP?

    var aspect: Double { height > 0 ? Double(width) / Double(height) : 1 }

    func render(_ frame: PreviewFrame) {
        let sourceWidth = frame.sensorWidth, sourceHeight = frame.sensorHeight
        guard sourceWidth > 0, sourceHeight > 0 else { return }
        let scale = min(Double(AnalysisPicture.longestSide) / Double(max(sourceWidth, sourceHeight)), 1)
        let w = max(Int(Double(sourceWidth) * scale) & ~1, 2), h = max(Int(Double(sourceHeight) * scale) & ~1, 2)
        if w != width || h != height {
            (width, height) = (w, h)
            xrgb = [UInt32](repeating: 0, count: w * h)
            rgb = [UInt8](repeating: 0, count: w * h * 3)
            grey = [UInt8](repeating: 0, count: w * h)
            previousGrey = grey
            hasPrevious = false
        } else {
            swap(&grey, &previousGrey)
            hasPrevious = true
        }
        if isp == nil || isp!.maximumSourceWidth < sourceWidth || isp!.maximumSourceHeight < sourceHeight
            || isp!.maximumOutputWidth < w {
            isp = PreviewISP(maximumSourceWidth: sourceWidth, maximumSourceHeight: sourceHeight, maximumOutputWidth: w)
        }
        let (w2, h2) = (width, height)
        xrgb.withUnsafeMutableBufferPointer { pixels in
            isp!.render(frame, into: pixels.baseAddress!, stride: w2, outputWidth: w2, outputHeight: h2,
                        viewfinder: PixelRect(x: 0, y: 0, width: w2, height: h2), crop: nil, rows: 0..<h2)
        }
        // Through pointers taken once: indexing the class's arrays a pixel at a time costs an
        // exclusivity check and a uniqueness check each, a quarter of the thread's time.
        xrgb.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { rgb in
                grey.withUnsafeMutableBufferPointer { grey in
                    AnalysisPicture.split(source.baseAddress!, rgb: rgb.baseAddress!, grey: grey.baseAddress!, count: w * h)
                }
            }
        }
        let side = 1 / max(frame.sensorZoom, 0.01)
        extent = FractionalBox(centreX: 0.5, centreY: 0.5, width: side, height: side)
    }

    /// XRGB pixels to RGB for the detector and Rec. 601 luma (in integers) for the flow.
    private static func split(_ source: UnsafePointer<UInt32>, rgb: UnsafeMutablePointer<UInt8>,
                              grey: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count {
            let pixel = source[index]
            let r = UInt8(truncatingIfNeeded: pixel >> 16), g = UInt8(truncatingIfNeeded: pixel >> 8)
            let b = UInt8(truncatingIfNeeded: pixel)
            rgb[3 * index] = r
            rgb[3 * index + 1] = g
            rgb[3 * index + 2] = b
            grey[index] = UInt8((77 * Int(r) + 150 * Int(g) + 29 * Int(b)) >> 8)
        }
    }
}
