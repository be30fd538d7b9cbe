/// A sensor's noise as DNG's NoiseProfile gives it: variance = scale × signal + offset,
/// signal 0…1 of the raw range (shot noise grows with the signal, read noise does not).
public struct NoiseProfile: Sendable, Equatable {
    public var scale: Double
    public var offset: Double

    public init(scale: Double, offset: Double) { (self.scale, self.offset) = (scale, offset) }

    /// The same sensor at an analogue gain: shot noise's variance grows with the gain, read
    /// noise's with its square.
    public func atGain(_ gain: Double) -> NoiseProfile { NoiseProfile(scale: scale * gain, offset: offset * gain * gain) }
}
