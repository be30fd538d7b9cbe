import ReflexCore

/// How well auto-zoom framed a clip's subject, frame by frame against its true box: the
/// figures `reflex bench track` reports and the skier test holds to the targets.
public struct FramingScore: Sendable {
    /// One displayed frame: the clip's picture it showed, the framing, and the subject's track.
    public struct Sample: Sendable {
        public var picture: Int
        public var time: Double
        public var framing: Framing
        public var subjectID: Int?

        public init(picture: Int, time: Double, framing: Framing, subjectID: Int?) {
            (self.picture, self.time, self.framing, self.subjectID) = (picture, time, framing, subjectID)
        }
    }

    public private(set) var scored = 0
    /// Frames after the first scored one where no framing could have met the targets, left
    /// out of the shares (`isFramable`).
    public private(set) var leftOut = 0
    public private(set) var centred = 0
    public private(set) var sized = 0
    /// The zoom's fastest change between two samples, in doublings a second.
    public private(set) var fastestZoom = 0.0
    public private(set) var reversals = ZoomReversalCounter()
    /// The subject's tracks in the scored frames, in order of appearance.
    public private(set) var subjects: [Int] = []
    public private(set) var seconds = 0.0
    private var last: Sample?

    public let size: AutoFraming.Size
    /// Frames before this picture are not scored (the camera finds the subject first).
    public let firstScored: Int

    /// The zoom's range, which decides what can be framed.
    public let zoomRange: ClosedRange<Double>

    public init(size: AutoFraming.Size, firstScored: Int, zoomRange: ClosedRange<Double> = 1...8) {
        self.size = size
        self.firstScored = firstScored
        self.zoomRange = zoomRange
    }

    /// Whether any framing could have met both targets for a subject at `truth`: the zoom that
    /// sizes it is within the range (±20 %, the sizing target's own tolerance), and at that
    /// zoom a crop inside the picture can put its centre in the middle third. A subject against
    /// the frame's edge at 1×, taller than the size at 1×, or too small for the longest zoom
    /// cannot be framed: such a frame says nothing of auto-zoom.
    public func isFramable(_ truth: FractionalBox) -> Bool {
        guard truth.height > 0 else { return false }
        let wanted = size.subjectHeight / truth.height
        guard wanted >= zoomRange.lowerBound / 1.2, wanted <= zoomRange.upperBound * 1.2 else { return false }
        // The crop is 1/zoom of the picture each way; its middle third can cover a centre
        // more than a third of the crop from the picture's edges.
        let side = 1 / min(max(wanted, zoomRange.lowerBound), zoomRange.upperBound)
        let reach = side / 3
        return truth.centreX > reach && truth.centreX < 1 - reach && truth.centreY > reach && truth.centreY < 1 - reach
    }

    /// Takes one frame; `truth` is the subject's true box in the clip's fractions.
    public mutating func add(_ sample: Sample, truth: FractionalBox) {
        defer { last = sample }
        if let last, sample.time > last.time {
            let speed = abs(FastMath.log2(sample.framing.zoom / last.framing.zoom)) / (sample.time - last.time)
            fastestZoom = max(fastestZoom, speed)
        }
        reversals.record(zoom: sample.framing.zoom)
        guard sample.picture >= firstScored else { return }
        if let last { seconds += max(sample.time - last.time, 0) }
        guard isFramable(truth) else {
            leftOut += 1
            return
        }
        scored += 1
        let shown = truth.within(sample.framing.crop)
        let third = 1.0 / 3
        if shown.centreX > third && shown.centreX < 2 * third && shown.centreY > third && shown.centreY < 2 * third { centred += 1 }
        if abs(shown.height - size.subjectHeight) <= 0.2 * size.subjectHeight { sized += 1 }
        if let id = sample.subjectID, subjects.last != id { subjects.append(id) }
    }

    public var centredShare: Double { scored > 0 ? Double(centred) / Double(scored) : 0 }
    public var sizedShare: Double { scored > 0 ? Double(sized) / Double(scored) : 0 }
    public var reversalsPerMinute: Double { seconds > 0 ? Double(reversals.reversals) * 60 / seconds : 0 }
    /// One track from the first scored frame to the last: the subject kept through it all.
    public var keptOneSubject: Bool { Set(subjects).count == 1 }

    public var summary: String {
        "\(scored) frames scored (\(leftOut) left out: no framing could meet the targets there): the subject's centre in the middle third in \(percent(centredShare)) (target ≥ 95 %), "
            + "its height within ±20 % of \(Int(size.subjectHeight * 100)) % in \(percent(sizedShare)) (target ≥ 90 %); "
            + "the zoom at most \(Formatting.fixed(pow2(fastestZoom), 2, width: 0))× a second (target ≤ 2.0×), "
            + "\(Formatting.fixed(reversalsPerMinute, 1, width: 0)) reversals a minute (target ≤ 6); "
            + (keptOneSubject ? "one track throughout" : "the subject's tracks: \(subjects)")
    }

    private func percent(_ share: Double) -> String { Formatting.fixed(share * 100, 1, width: 0) + " %" }
    private func pow2(_ doublings: Double) -> Double { FastMath.exp2(doublings) }
}
