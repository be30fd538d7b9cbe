/// Auto-zoom's rule: from where the subject is (or that it is lost) and the time, the next
/// framing. The subject's height goes to a chosen fraction of the picture, centred, with room
/// ahead of it in the direction it moves. The zoom never changes faster than the seed's ramp
/// (doubling or halving in a second), speeds up and slows down smoothly, and does not move
/// for a subject that is nearly framed (a dead band wider than the detector's jitter), so it
/// never hunts. Lost, it holds for a second, then widens at the ramp's rate to find the
/// subject again. A manual zoom overrides at once and pauses it until a few seconds after
/// the photographer lets go.
///
/// Pure: the time comes in as an argument, as in `InterfaceController`.
public struct AutoFraming: Sendable {
    /// How large the subject is framed.
    public enum Size: String, CaseIterable, Sendable {
        case tight, medium, wide

        /// The subject's height as a fraction of the picture's.
        public var subjectHeight: Double {
            switch self {
            case .tight: 0.7
            case .medium: 0.5
            case .wide: 0.3
            }
        }
    }

    public enum Phase: Sendable, Equatable {
        /// No subject seen yet: the framing stays.
        case waiting
        case following
        /// The subject was lost less than `lostHoldSeconds` ago: the framing stays.
        case holding
        /// Lost for longer: widening to find it.
        case searching
        /// A manual zoom is held, or was let go less than `overridePauseSeconds` ago.
        case overridden
    }

    /// Where the subject is now, and how fast it moves (fractions of the zoom-1 picture a second).
    public struct Subject: Sendable, Equatable {
        public var box: FractionalBox
        public var velocityX: Double
        public var velocityY: Double
        /// How fast its height changes (fractions of the picture a second): coming nearer.
        public var heightVelocity: Double

        public init(box: FractionalBox, velocityX: Double = 0, velocityY: Double = 0, heightVelocity: Double = 0) {
            (self.box, self.velocityX, self.velocityY, self.heightVelocity) = (box, velocityX, velocityY, heightVelocity)
        }
    }

    /// The zoom's top speed: the seed's ramp.
    public static let maximumDoublingsPerSecond = ZoomRamp.seedDoublingsPerSecond
    /// How quickly the zoom's speed changes (doublings a second, each second).
    public static let zoomAcceleration = 4.0
    /// The zoom starts moving when the framing is this far off (in stops: 0.2 is 15 %), wider
    /// than a detector's jitter on a still subject; once moving it goes until `zoomSettleStops`.
    public static let zoomStartStops = 0.2
    public static let zoomSettleStops = 0.04
    /// Starting back the way the zoom last came needs the framing this far off (0.3 is 23 %):
    /// that move would be a reversal, and a detector reads a walker's height 15 % off for a
    /// second or so, from their stride, longer than any patience.
    public static let zoomReverseStops = 0.3
    /// The zoom settles only on a subject whose size changes slower than this (doublings a second).
    public static let zoomSettleGrowth = 0.1
    /// A framing off by more than `zoomStartStops` but less than a quarter more moves the zoom
    /// only once it has stayed off this long: one detection's wrong box is not a reason.
    public static let zoomPatience = 0.1
    /// Near the target the zoom closes the gap with this time constant (seconds).
    public static let zoomTimeConstant = 0.3
    /// The crop starts to pan when the subject's centre (plus lead) is this far from the
    /// crop's, in fractions of the crop; well inside the middle third.
    public static let panDeadZone = 0.06
    public static let panSettle = 0.01
    public static let panTimeConstant = 0.35
    /// How quickly the pan's speed changes, in crops a second, each second.
    public static let panAcceleration = 3.0
    /// Room ahead of a moving subject: where it will be this far ahead, at most `leadLimit`
    /// of the crop.
    public static let leadSeconds = 0.4
    public static let leadLimit = 0.05
    /// Slower than this (crops a second) a subject gets no lead: its speed is the estimate's noise.
    public static let leadFromSpeed = 0.1
    public static let lostHoldSeconds = 1.0
    public static let overridePauseSeconds = 3.0
    /// A gap longer than this between two updates (a pause, a stalled thread) is not motion.
    static let longestStep = 0.1

    public let range: ClosedRange<Double>
    public var size: Size
    public private(set) var framing: Framing
    public private(set) var phase = Phase.waiting

    /// Doublings a second (negative: widening).
    private var zoomRate = 0.0
    /// Fractions of the zoom-1 picture a second.
    private var panVelocity = (x: 0.0, y: 0.0)
    private var zooming = false
    /// Which way the zoom last moved, by the measure that counts its reversals.
    private var movement = ZoomReversalCounter()
    /// Since when the framing has been off by more than `zoomStartStops` (nil: it is not).
    private var offSince: Double?
    private var panning = (x: false, y: false)
    private var lastSeen: Double?
    private var lastUpdate: Double?
    private var manualHeld = false
    private var pausedUntil: Double?

    public init(range: ClosedRange<Double>, size: Size = .medium, framing: Framing? = nil) {
        precondition(range.lowerBound > 0, "zoom needs a positive range")
        self.range = range
        self.size = size
        let start = framing ?? Framing(zoom: range.lowerBound)
        self.framing = Framing(zoom: min(max(start.zoom, range.lowerBound), range.upperBound),
                               centreX: start.centreX, centreY: start.centreY)
    }

    /// The zoom's speed now, in doublings a second (for the tests and the bench).
    public var doublingsPerSecond: Double { zoomRate }

    /// The framing at `now` for `subject` (nil: not seen in this frame), its crop kept inside
    /// `extent`, the part of the zoom-1 picture the streaming lens sees.
    @discardableResult
    public mutating func update(subject: Subject?, extent: FractionalBox = Framing.wholePicture, at now: Double) -> Framing {
        let step = min(max(now - (lastUpdate ?? now), 0), AutoFraming.longestStep)
        lastUpdate = now
        if subject != nil { lastSeen = now }
        if manualHeld || (pausedUntil.map { now < $0 } ?? false) {
            phase = .overridden
            stop()
            framing = framing.kept(inside: extent)
            return framing
        }
        pausedUntil = nil

        var targetStops: Double?
        if let subject {
            phase = .following
            let wanted = size.subjectHeight / max(subject.box.height, 1e-3)
            targetStops = FastMath.log2(min(max(wanted, range.lowerBound), range.upperBound))
        } else if let lastSeen, now - lastSeen < AutoFraming.lostHoldSeconds {
            phase = .holding
        } else if lastSeen != nil {
            phase = .searching
            // Aimed past the widest, so the zoom arrives there rather than creeping up on it.
            targetStops = FastMath.log2(range.lowerBound) - 0.1
            zooming = true
        } else {
            phase = .waiting
        }
        // A subject coming nearer (or going away) is followed at its own pace, not behind it.
        let growth = subject.map { -$0.heightVelocity / max($0.box.height, 1e-3) / 0.6931 } ?? 0
        moveZoom(toward: targetStops, following: growth, step: step, at: now)
        pan(toward: subject, step: step)
        let kept = framing.kept(inside: extent)
        // Against the edge of what the lens sees, a pan into it stops there. One away from it
        // goes on: a widening zoom pushes the crop off the edge every frame, and stopping the
        // pan each time would pin the crop there while the subject walks back.
        if (kept.centreX - framing.centreX) * panVelocity.x < 0 { panVelocity.x = 0 }
        if (kept.centreY - framing.centreY) * panVelocity.y < 0 { panVelocity.y = 0 }
        framing = kept
        return framing
    }

    /// A zoom key, a pinch or a zoom dial set the zoom: it is the photographer's until they
    /// let go and `overridePauseSeconds` pass.
    public mutating func manualZoom(_ factor: Double, at now: Double) {
        manualHeld = true
        phase = .overridden
        stop()
        framing.zoom = min(max(factor.isFinite ? factor : 1, range.lowerBound), range.upperBound)
        lastUpdate = now
    }

    /// The manual zoom let go: auto-zoom takes over again `overridePauseSeconds` later.
    public mutating func manualReleased(at now: Double) {
        guard manualHeld else { return }
        manualHeld = false
        pausedUntil = now + AutoFraming.overridePauseSeconds
    }

    /// Auto-zoom turned back on: it follows at once.
    public mutating func resume() {
        manualHeld = false
        pausedUntil = nil
    }

    private mutating func stop() {
        zoomRate = 0
        panVelocity = (0, 0)
        zooming = false
        panning = (false, false)
        movement = ZoomReversalCounter()  // the photographer's zoom: the next move reverses nothing
    }

    /// Zoom toward `target` (stops; nil: hold) at a speed that rises and falls smoothly and
    /// never passes the ramp's.
    private mutating func moveZoom(toward target: Double?, following growth: Double, step: Double, at now: Double) {
        let stops = FastMath.log2(framing.zoom)
        var wantedRate = 0.0
        if let target {
            let error = target - stops
            let reversing = (error > 0 ? 1 : -1) == -movement.direction
            let start = reversing ? AutoFraming.zoomReverseStops : AutoFraming.zoomStartStops
            if abs(error) <= start { offSince = nil } else if offSince == nil { offSince = now }
            if !zooming, let since = offSince, abs(error) > 1.25 * start || now - since >= AutoFraming.zoomPatience {
                zooming = true
            }
            // (Not while the subject grows or shrinks: the target moves on, and a zoom stopped
            // there would need a reversal's margin to follow a subject that turned toward it.)
            if zooming && phase != .searching && abs(error) < AutoFraming.zoomSettleStops && abs(zoomRate) < 0.1
                && abs(growth) < AutoFraming.zoomSettleGrowth {
                zooming = false
            }
            if zooming {
                let speed = min(AutoFraming.maximumDoublingsPerSecond, (2 * AutoFraming.zoomAcceleration * abs(error)).squareRoot(),
                                abs(error) / AutoFraming.zoomTimeConstant)
                // The subject's own growth carries the zoom along, but never past the target
                // (its estimate lags when the subject stops: no overshoot to come back from).
                wantedRate = (error < 0 ? -speed : speed) + (growth * error > 0 ? growth : 0)
            }
        } else {
            zooming = false
        }
        let change = AutoFraming.zoomAcceleration * step
        zoomRate += min(max(wantedRate - zoomRate, -change), change)
        zoomRate = min(max(zoomRate, -AutoFraming.maximumDoublingsPerSecond), AutoFraming.maximumDoublingsPerSecond)
        let low = FastMath.log2(range.lowerBound), high = FastMath.log2(range.upperBound)
        var next = stops + zoomRate * step
        if next <= low || next >= high {
            next = min(max(next, low), high)
            zoomRate = 0
        }
        framing.zoom = min(max(FastMath.exp2(next), range.lowerBound), range.upperBound)
        movement.record(zoom: framing.zoom)
    }

    /// Pan the crop after the subject (plus its lead), matching its speed, with a dead zone.
    private mutating func pan(toward subject: Subject?, step: Double) {
        let crop = 1 / framing.zoom
        func axis(centre: Double, velocity: Double, panning: inout Bool, subjectCentre: Double?, subjectVelocity: Double)
            -> (centre: Double, velocity: Double) {
            var wanted = 0.0
            if let subjectCentre {
                let fast = max(abs(subjectVelocity) - AutoFraming.leadFromSpeed * crop, 0)
                let lead = min(fast * AutoFraming.leadSeconds, AutoFraming.leadLimit * crop) * (subjectVelocity < 0 ? -1 : 1)
                let error = subjectCentre + lead - centre
                if !panning && abs(error) > AutoFraming.panDeadZone * crop { panning = true }
                if panning && abs(error) < AutoFraming.panSettle * crop && abs(subjectVelocity) < 0.02 * crop {
                    panning = false
                }
                if panning { wanted = subjectVelocity + error / AutoFraming.panTimeConstant }
            } else {
                panning = false
            }
            let change = AutoFraming.panAcceleration * crop * step
            let next = velocity + min(max(wanted - velocity, -change), change)
            return (centre + next * step, next)
        }
        let x = axis(centre: framing.centreX, velocity: panVelocity.x, panning: &panning.x,
                     subjectCentre: subject?.box.centreX, subjectVelocity: subject?.velocityX ?? 0)
        let y = axis(centre: framing.centreY, velocity: panVelocity.y, panning: &panning.y,
                     subjectCentre: subject?.box.centreY, subjectVelocity: subject?.velocityY ?? 0)
        framing.centreX = x.centre
        framing.centreY = y.centre
        panVelocity = (x.velocity, y.velocity)
    }
}
