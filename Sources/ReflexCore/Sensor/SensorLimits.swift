/// What the sensor and lens can do, discovered at run time (V4L2 controls + the Board file).
public struct SensorLimits: Sendable, Equatable {
    public var isoRange: ClosedRange<Int>
    public var exposureRange: ClosedRange<Double>
    public var hasFocusControl: Bool
    /// A Bayer format exists, so RAW (DNG) can be offered.
    public var hasRawFormat: Bool
    /// Why Enhanced RAW cannot be offered on this camera, in a line for the quick menu (nil:
    /// it can, where RAW can).
    public var enhancedRawUnavailable: String?

    public init(isoRange: ClosedRange<Int>, exposureRange: ClosedRange<Double>,
                hasFocusControl: Bool, hasRawFormat: Bool, enhancedRawUnavailable: String? = nil) {
        self.isoRange = isoRange
        self.exposureRange = exposureRange
        self.hasFocusControl = hasFocusControl
        self.hasRawFormat = hasRawFormat
        self.enhancedRawUnavailable = enhancedRawUnavailable
    }

    /// The formats this sensor can save: JPEG only without a Bayer format, no Enhanced RAW
    /// where it cannot merge (docs/camera.md, Photos: only the ones it can save are offered).
    public var formats: [CaptureFormat] {
        guard hasRawFormat else { return [.jpeg] }
        return enhancedRawUnavailable == nil ? CaptureFormat.allCases : CaptureFormat.allCases.filter { !$0.merges }
    }

    /// Said where a board's stills come from a mode of their own: the frames of the stream
    /// the ring keeps are not the photo's, so there is nothing to merge.
    public static let stillsSwitchModes = "Enhanced RAW needs stills from the stream; this board switches modes"

    /// Said where the memory budget keeps fewer frames than a merge needs.
    public static func tooFewFramesKept(_ kept: Int, needed: Int) -> String {
        "Enhanced RAW needs \(needed) frames in memory; this board keeps \(kept)"
    }

    /// A sensor that reaches every stop the seeds list.
    public static let unlimited = SensorLimits(
        isoRange: 100...12800, exposureRange: (1.0 / 8000)...1.0, hasFocusControl: true, hasRawFormat: true)
}
