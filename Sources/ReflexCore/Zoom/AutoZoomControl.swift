/// The zoom the photographer and auto-zoom share. Off, the framing is the manual zoom,
/// centred. On, it is `AutoFraming`'s, and the manual zoom's factor follows it (so a key or a
/// pinch starts from where auto-zoom is); a zoom key held, a pinch or a lens button's glide
/// overrides it at once, and auto-zoom takes over again a few seconds after the hand lets go.
public struct AutoZoomControl: Sendable {
    public private(set) var rule: AutoFraming?
    private var handOnZoom = false

    public init() {}

    /// What auto-zoom is doing (nil: off).
    public var phase: AutoFraming.Phase? { rule?.phase }

    /// The framing at `now`. `zoom` is the manual zoom (moved to auto-zoom's factor while auto
    /// frames); `pinching` says two fingers are zooming; `subject` is the subject predicted to
    /// `now` (nil: none seen); `extent` what the streaming lens sees of the zoom-1 picture.
    public mutating func framing(enabled: Bool, size: AutoFraming.Size, zoom: inout ZoomRamp, pinching: Bool,
                                 subject: AutoFraming.Subject?, extent: FractionalBox = Framing.wholePicture,
                                 at now: Double) -> Framing {
        guard enabled else {
            rule = nil
            handOnZoom = false
            return Framing(zoom: zoom.factor(at: now))
        }
        if rule == nil || rule!.range != zoom.range {
            rule = AutoFraming(range: zoom.range, size: size,
                               framing: Framing(zoom: zoom.factor(at: now), centreX: rule?.framing.centreX ?? 0.5,
                                                centreY: rule?.framing.centreY ?? 0.5))
        }
        rule!.size = size
        let byHand = zoom.isRamping || pinching
        if byHand {
            rule!.manualZoom(zoom.factor(at: now), at: now)
            handOnZoom = true
        } else if handOnZoom {
            rule!.manualReleased(at: now)
            handOnZoom = false
        }
        let framing = rule!.update(subject: subject, extent: extent, at: now)
        if !byHand { zoom.set(framing.zoom) }
        return framing
    }

    /// Auto-zoom turned on again by the photographer: it follows at once.
    public mutating func resume() { rule?.resume() }
}
