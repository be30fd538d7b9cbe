import ReflexCore

/// Auto exposure: brings the frame's mean luma to mid grey (0.18 of white, moved by the
/// exposure compensation), exposure time first and then gain, without brightening while
/// highlights clip. Each decision uses the exposure the measured frame was really taken
/// with, and a new request waits until frames show the previous one, so sensor latency
/// cannot make it overshoot and swing.
public struct AutoExposure: Sendable {
    public static let midGrey = 0.18
    /// Differences smaller than this (in stops) are left alone: no hunting.
    public static let deadband = 0.1
    /// The most AE moves in one decision, in stops.
    public static let largestStep = 4.0
    /// Part of the remaining error corrected per decision: below 1 so that noise and a
    /// changing scene are followed smoothly.
    public static let damping = 0.8
    /// Highlight protection: above this share of clipped tiles AE does not brighten, and
    /// above the second it darkens by at least a third of a stop.
    public static let clipHold = 0.02
    public static let clipDarken = 0.10
    /// A request that has not shown up after this many decisions is given up on.
    public static let patienceFrames = 8
    /// After clipping forced it darker, AE does not brighten past that level again for this
    /// many decisions: a large bright area (a sky) cannot make it swing in and out of clipping.
    public static let clipMemoryDecisions = 30

    public let limits: ExposureLimits
    /// Exposure compensation: the target moves by its stops.
    public var compensation: ExposureCompensation = .zero
    /// Enhanced RAW's underexposure (`HighlightHeadroom`): the sensor gets this many stops
    /// less, the digital gain makes them up, the picture's brightness stays.
    public var headroomStops = 0.0
    private var pending: ExposureSetting?
    private var framesWaited = 0
    /// The brightness (exposure × gain) at which highlights clipped, and for how long more
    /// it caps brightening.
    private var clipCeiling: Double?
    private var clipMemory = 0

    public init(limits: ExposureLimits) {
        self.limits = limits
    }

    /// The setting to ask for next, given a frame's mean linear luma (0…1 of white), its
    /// share of clipped tiles, and the setting it was taken with.
    public mutating func update(meanLuma: Double, clippedFraction: Double, frame: ExposureSetting) -> ExposureSetting {
        if let pending, !frame.matches(pending), framesWaited < AutoExposure.patienceFrames {
            framesWaited += 1
            return pending
        }
        let target = AutoExposure.midGrey * FastMath.exp2(compensation.stops)
        var stops = FastMath.log2(target / max(meanLuma, 1e-5))
        if clippedFraction > AutoExposure.clipHold { stops = min(stops, 0) }
        if clippedFraction > AutoExposure.clipDarken {
            stops = min(stops, -1.0 / 3)
            clipCeiling = frame.product * FastMath.exp2(-1.0 / 3)
            clipMemory = AutoExposure.clipMemoryDecisions
        } else if clipMemory > 0 {
            clipMemory -= 1
            if clipMemory == 0 { clipCeiling = nil }
        }
        guard abs(stops) >= AutoExposure.deadband else {
            pending = nil
            return frame
        }
        var step = min(max(stops * AutoExposure.damping, -AutoExposure.largestStep), AutoExposure.largestStep)
        if clippedFraction > AutoExposure.clipDarken { step = min(step, -1.0 / 3) }
        var product = frame.product * FastMath.exp2(step)
        if let clipCeiling, step > 0 { product = min(product, max(clipCeiling, frame.product)) }
        guard !ExposureSetting.sameBrightness(product, frame.product) else {
            pending = nil
            return frame
        }
        let next = allocate(product: product)
        pending = next
        framesWaited = 0
        return next
    }

    /// The sensor rounded the last request to its steps: frames will show `setting`, and
    /// that is what to wait for.
    public mutating func applied(_ setting: ExposureSetting) {
        if pending != nil { pending = setting }
    }

    /// Exposure time first (up to the preview's limit), then analogue gain, then digital gain;
    /// the sensor's share `headroomStops` short, the digital gain making it up.
    public func allocate(product: Double) -> ExposureSetting {
        let headroom = FastMath.exp2(headroomStops)
        let sensorProduct = product / headroom
        let longest = min(limits.exposure.upperBound, max(limits.previewExposureLimit, limits.exposure.lowerBound))
        let exposure = min(max(sensorProduct / limits.analogGain.lowerBound, limits.exposure.lowerBound), longest)
        let analog = min(max(sensorProduct / exposure, limits.analogGain.lowerBound), limits.analogGain.upperBound)
        let digital = min(max(product / (exposure * analog), 1), limits.maximumDigitalGain * headroom)
        return ExposureSetting(exposure: exposure, analogGain: analog, digitalGain: digital)
    }
}

/// The frame's mean luma as AE meters it: sensor means through the white balance, in
/// Rec. 709 weights.
public func meteredLuma(_ mean: SIMD3<Double>, whiteBalance: SIMD3<Double>) -> Double {
    let balanced = mean * whiteBalance
    return 0.2126 * balanced.x + 0.7152 * balanced.y + 0.0722 * balanced.z
}
