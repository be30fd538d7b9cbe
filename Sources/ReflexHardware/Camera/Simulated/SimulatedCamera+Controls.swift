import CV4L2
import ReflexSystem

/// What the simulated sensor tells V4L2's queries, as a driver does: its formats and modes,
/// and its controls with their ranges (a CSI sensor's exposure range follows its frame length).
extension SimulatedCamera {
    /// How the probe and the sensor thread see it.
    public static func info(_ style: Style) -> CaptureDeviceInfo {
        style == .absoluteExposure ? info : exposureInLinesInfo
    }

    public static let info = CaptureDeviceInfo(
        path: "simulated", driver: "reflex-sim", card: "Simulated sensor", busInfo: "none",
        formats: [.init(fourCC: FourCC(fourCC), description: "12-bit Bayer RGGB",
                        sizes: [.init(width: width, height: height, framesPerSecond: [Double(framesPerSecond)]),
                                .init(width: binnedWidth, height: binnedHeight, framesPerSecond: [Double(framesPerSecond)]),
                                .init(width: largeWidth, height: largeHeight, framesPerSecond: [Double(largeFramesPerSecond)])])],
        controls: [
            .init(id: REFLEX_V4L2_CID_GAIN, name: "Gain", type: "int", minimum: 16, maximum: 255, step: 1, defaultValue: 16),
            .init(id: REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE, name: "Exposure Time, Absolute", type: "int",
                  minimum: 1, maximum: 333, step: 1, defaultValue: 100),
            .init(id: REFLEX_V4L2_CID_FOCUS_ABSOLUTE, name: "Focus, Absolute", type: "int",
                  minimum: 0, maximum: 1023, step: 1, defaultValue: 0),
            .init(id: REFLEX_V4L2_CID_FOCUS_AUTO, name: "Focus, Automatic Continuous", type: "bool",
                  minimum: 0, maximum: 1, step: 1, defaultValue: 1),
            // UVC's objective focal length: 100 is 1×, 400 is 4×.
            .init(id: REFLEX_V4L2_CID_ZOOM_ABSOLUTE, name: "Zoom, Absolute", type: "int",
                  minimum: 100, maximum: 400, step: 1, defaultValue: 100),
        ])

    static let exposureInLinesInfo = CaptureDeviceInfo(
        path: "simulated", driver: "reflex-sim", card: "Simulated CSI sensor", busInfo: "none",
        formats: [.init(fourCC: FourCC(fourCC), description: "12-bit Bayer RGGB",
                        sizes: Array(info.formats[0].sizes.prefix(2)))],
        controls: info.controls.filter { $0.id != REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE } + [
            exposureInLinesControl(verticalBlanking: modeVerticalBlanking),
            .init(id: REFLEX_V4L2_CID_VBLANK, name: "Vertical Blanking", type: "int", minimum: Int64(modeVerticalBlanking),
                  maximum: Int64(longestVerticalBlanking), step: 1, defaultValue: Int64(modeVerticalBlanking)),
            .init(id: REFLEX_V4L2_CID_PIXEL_RATE, name: "Pixel Rate", type: "int64", minimum: pixelRate,
                  maximum: pixelRate, step: 1, defaultValue: pixelRate),
            .init(id: REFLEX_V4L2_CID_HBLANK, name: "Horizontal Blanking", type: "int", minimum: Int64(horizontalBlanking),
                  maximum: Int64(horizontalBlanking), step: 1, defaultValue: Int64(horizontalBlanking)),
        ])

    /// The exposure control in lines as the frame's length allows it.
    static func exposureInLinesControl(verticalBlanking: Int32) -> CaptureDeviceInfo.Control {
        .init(id: REFLEX_V4L2_CID_EXPOSURE, name: "Exposure", type: "int", minimum: 4,
              maximum: Int64(Int32(height) + verticalBlanking - exposureMargin), step: 1, defaultValue: 300)
    }

    /// How the probe and the sensor thread see the sensor playing `footage`: one mode, the
    /// video's size and rate.
    public static func info(footage: VideoFootage) -> CaptureDeviceInfo {
        let name = footage.path.split(separator: "/").last.map(String.init) ?? footage.path
        return CaptureDeviceInfo(
            path: footage.path, driver: "reflex-sim", card: "Video file sensor (\(name))", busInfo: "none",
            formats: [.init(fourCC: FourCC(fourCC), description: "12-bit Bayer RGGB",
                            sizes: [.init(width: footage.width, height: footage.height, framesPerSecond: [footage.framesPerSecond])])],
            controls: info.controls)
    }

    public func control64(_ id: UInt32) throws(CameraError) -> Int64 {
        if id == REFLEX_V4L2_CID_PIXEL_RATE && style == .exposureInLines { return SimulatedCamera.pixelRate }
        return Int64(try control(id))
    }

    public func describeControl(_ id: UInt32) -> CaptureDeviceInfo.Control? {
        if id == REFLEX_V4L2_CID_EXPOSURE && style == .exposureInLines {
            return SimulatedCamera.exposureInLinesControl(verticalBlanking: verticalBlanking)
        }
        return SimulatedCamera.info(style).controls.first { $0.id == id }
    }
}
