/// What the preview ISP applies, set per frame by Auto (AE/AWB) or by the Pro dials.
public struct ISPParameters: Sendable, Equatable {
    /// The sensor's black level, in sample units.
    public var blackLevel: Int
    /// The value of a saturated sample.
    public var whiteLevel: Int
    /// White-balance gains (green = 1).
    public var whiteBalance: SIMD3<Double>
    /// A gain on top of the sensor's, where the sensor cannot reach the ISO asked for.
    public var digitalGain: Double
    /// Camera RGB → linear sRGB.
    public var colorMatrix: Matrix3

    public init(blackLevel: Int, whiteLevel: Int, whiteBalance: SIMD3<Double> = SIMD3(1, 1, 1),
                digitalGain: Double = 1, colorMatrix: Matrix3 = .identity) {
        precondition(whiteLevel > blackLevel, "white must lie above black")
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.whiteBalance = whiteBalance
        self.digitalGain = digitalGain
        self.colorMatrix = colorMatrix
    }
}

/// An integer rectangle (pixels).
public struct PixelRect: Sendable, Equatable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The centre `scale` (0…1) of a `width` × `height` picture: the digital zoom's crop.
    public static func centred(in width: Int, _ height: Int, scale: Double) -> PixelRect {
        let w = max(2, Int((Double(width) * scale).rounded())), h = max(2, Int((Double(height) * scale).rounded()))
        return PixelRect(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h)
    }

    /// The largest rectangle of `aspect` (width/height of the source) centred in this one:
    /// the viewfinder's letterbox.
    public func fitting(sourceWidth: Int, sourceHeight: Int) -> PixelRect {
        let scale = min(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let w = min(width, Int((Double(sourceWidth) * scale).rounded()))
        let h = min(height, Int((Double(sourceHeight) * scale).rounded()))
        return PixelRect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
