import ReflexCore

/// Turns each analysis frame's detections into tracks, as SORT does: every track predicted to
/// the frame's time (`BoxMotion`), matched to a detection by overlap (or, for a small fast
/// subject whose prediction overlaps nothing, by nearness), corrected by it; a detection
/// matched by none starts a track, a track unseen for `maximumCoastSeconds` ends. So a person
/// keeps their identity through a missed detection, a crossing with someone else and a short
/// occlusion, predicted meanwhile.
///
/// A detection may look at parts of the frame only (`DetectionPlan`): a person where it did
/// not look is not missed, only predicted.
///
/// The subject is the track the photographer tapped, else the person moving across the scene
/// (a skier, not the people standing by), else the largest confirmed person near the centre;
/// kept while its track lives, unless it stands still and someone else moves.
///
/// Pure: the time comes in as an argument.
public struct SubjectTracker: Sendable {
    /// A track unseen this long (an occlusion, about a second) ends.
    public static let maximumCoastSeconds = 1.2
    /// A track seen once ends sooner: it was probably a false detection.
    public static let tentativeSeconds = 0.4
    public static let hitsToConfirm = 2
    /// A prediction and a detection overlapping this much (over their union) are one person.
    public static let minimumOverlap = 0.2
    /// Without overlap, a detection this near (centres apart, in the larger height) of the
    /// same size (within a factor of two) is the same person, moving faster than predicted.
    public static let nearness = 0.8

    public private(set) var tracks: [PersonTrack] = []
    /// The time between detections, smoothed: on a slow machine (an emulator, a small board)
    /// they come a second apart, and a person must not end before it can be seen twice.
    public private(set) var detectionInterval = 0.1
    private var lastUpdate: Double?
    /// The time since the detection before this one: the windows are never shorter than what
    /// the last one took (the smoothed pace takes a few detections to learn a slow machine).
    private var lastGap = 0.1
    private var pace: Double { max(detectionInterval, lastGap) }
    /// The windows, stretched with the detections' pace: unseen this long, a person is out of
    /// sight (its motion restarts when seen again); seen within `recentSeconds`, a tentative
    /// person lives on and a confirmed one may be the subject; coasting, a confirmed one lasts
    /// `coastSeconds`.
    private var unseenSeconds: Double { max(Self.lostSeconds, 1.8 * pace) }
    private var recentSeconds: Double { max(Self.tentativeSeconds, 2.5 * pace) }
    private var coastSeconds: Double { max(Self.maximumCoastSeconds, 3 * pace) }
    /// "Lately", for whether someone moves: three detections at least, so a person seen every
    /// few seconds (a slow board) is still seen to move.
    private var latelySeconds: Double { max(PersonTrack.anchorSeconds, 3 * pace) }
    /// Sightings a mover needs to take over from someone standing still: five where detections
    /// come often; where they come seconds apart, those that fit in `takeOverSeconds`, and one
    /// past confirming at least (five sightings a minute apart would keep a slow board's camera
    /// on the wrong person for minutes).
    public static let takeOverSeconds = 2.0
    private var hitsToTakeOver: Int {
        let fitting = Int((Self.takeOverSeconds / pace).rounded(.up))
        return min(PersonTrack.hitsToTakeOver, max(Self.hitsToConfirm + 1, fitting))
    }
    /// A track never looked at this long (the sweep's other squares, a slow machine) ends
    /// anyway, and no sooner than twenty detections.
    public static let unlookedSeconds = 3.0
    private var unlookedWindow: Double { max(Self.unlookedSeconds, 20 * pace) }
    /// A confirmed person looked for and not found this many times (and unseen for longer than
    /// an occlusion) is gone: where the sweep looks at them a second apart, one miss of a
    /// detector that finds them most of the time is not enough.
    public static let missesToEnd = 3
    /// The picture's width over its height (motion across and up counted alike).
    public var aspect = 16.0 / 9
    public private(set) var subjectID: Int?
    /// The photographer chose the subject (a tap), rather than the rule.
    public private(set) var subjectTapped = false
    private var nextID = 1

    public init() {}

    public var subject: PersonTrack? { subjectID.flatMap { id in tracks.first { $0.id == id } } }

    /// People seen once, waiting for a second look, where they are predicted at `time`.
    public func newcomers(at time: Double) -> [FractionalBox] {
        tracks.filter { !$0.isConfirmed }.map { $0.box(at: time) }
    }

    /// One analysis frame's detections, taken at `time`, from a detector that looked at
    /// `regions` of the picture (nil: all of it).
    public mutating func update(with detections: [PersonDetection], lookedAt regions: [FractionalBox]? = nil, at time: Double) {
        if let lastUpdate, time > lastUpdate {
            lastGap = min(time - lastUpdate, 10)
            detectionInterval += 0.3 * (lastGap - detectionInterval)
        }
        lastUpdate = time
        for index in tracks.indices {
            tracks[index].motion.predict(by: time - tracks[index].estimatedAt)
            tracks[index].estimatedAt = time
        }
        var unmatched = Array(detections.indices)
        for (track, detection) in Self.match(tracks, detections) {
            if time - tracks[track].lastSeen > unseenSeconds {
                tracks[track].motion.restart(at: detections[detection].box)
            } else {
                tracks[track].motion.correct(with: detections[detection].box)
            }
            tracks[track].seen(at: detections[detection].box, time: time, lately: latelySeconds)
            unmatched.removeAll { $0 == detection }
        }
        for index in tracks.indices where tracks[index].lastSeen < time
            && Self.wasLookedFor(tracks[index].box(at: time), in: regions) {
            tracks[index].motion.coast()
            tracks[index].missedLooks += 1
        }
        for detection in unmatched {
            tracks.append(PersonTrack(id: nextID, detection: detections[detection], at: time))
            nextID += 1
        }
        reidentify(at: time)
        let (coast, recent, unlooked) = (coastSeconds, recentSeconds, unlookedWindow)
        tracks.removeAll { track in
            let unseen = time - track.lastSeen, window = track.isConfirmed ? coast : recent
            let misses = track.isConfirmed ? Self.missesToEnd : 1
            return unseen > window && (track.missedLooks >= misses || unseen > window + unlooked)
        }
        chooseSubject(at: time)
    }

    /// Whether a detection looking at `regions` (nil: everywhere) would have found a person at
    /// `box`: whole in one of them (a person cut by a region's edge may be missed there), at a
    /// size the network sees there. A person predicted out of the picture counts as looked for
    /// (and so as missed).
    static func wasLookedFor(_ box: FractionalBox, in regions: [FractionalBox]?) -> Bool {
        guard let regions else { return true }
        guard Framing.wholePicture.contains(x: box.centreX, y: box.centreY) else { return true }
        return regions.contains { region in
            box.fraction(inside: region) >= 0.9 && box.height >= region.height * smallestInRegion
        }
    }

    /// A person less than this of a region's height is too few pixels for the network there.
    public static let smallestInRegion = 0.08

    /// A track lost this long (hidden, or its prediction drifted while it was) may be found
    /// again in a new track that starts near where it was heading.
    public static let lostSeconds = 0.3
    /// How near: centres apart, in the larger height.
    public static let reidentifyDistance = 1.0

    /// A new track just confirmed that starts where a lost confirmed track was heading is that
    /// person, seen again after an occlusion or a crossing: the lost track takes its estimate
    /// and keeps its identity (and its place as the subject); the new one goes.
    private mutating func reidentify(at time: Double) {
        // (Never the subject itself: it keeps its identity as it is.)
        for newIndex in tracks.indices.reversed() where tracks[newIndex].hits == Self.hitsToConfirm
            && tracks[newIndex].lastSeen == time && tracks[newIndex].id != subjectID {
            let found = tracks[newIndex].box(at: time)
            // Where each lost track would be, its motion since it was last seen counted for half
            // a second at most.
            let candidates = tracks.indices.filter { index in
                index != newIndex && tracks[index].isConfirmed && tracks[index].hits > Self.hitsToConfirm
                    && time - tracks[index].lastSeen > unseenSeconds
            }
            func distance(_ index: Int) -> Double {
                let track = tracks[index]
                let lastBox = track.box(at: track.lastSeen)
                let coast = min(time - track.lastSeen, 0.5)
                let x = lastBox.centreX + track.velocity.x * coast, y = lastBox.centreY
                let larger = max(lastBox.height, found.height), smaller = min(lastBox.height, found.height)
                guard smaller * 2 >= larger else { return .infinity }
                let dx = x - found.centreX, dy = y - found.centreY
                return (dx * dx + dy * dy).squareRoot() / larger
            }
            guard let lost = candidates.min(by: { distance($0) < distance($1) }), distance(lost) < Self.reidentifyDistance
            else { continue }
            tracks[lost].motion = tracks[newIndex].motion
            tracks[lost].estimatedAt = tracks[newIndex].estimatedAt
            tracks[lost].lastSeen = time
            tracks[lost].hits += tracks[newIndex].hits
            tracks[lost].missedLooks = 0
            tracks.remove(at: newIndex)
        }
    }

    /// A finer measurement of a track's box between detections (optical flow); it moves the
    /// estimate but is no detection: it neither confirms the track nor keeps it alive.
    public mutating func refine(track id: Int, box: FractionalBox, errorHeights: Double, at time: Double) {
        guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }
        tracks[index].motion.predict(by: time - tracks[index].estimatedAt)
        tracks[index].estimatedAt = time
        tracks[index].motion.correct(with: box, errorHeights: errorHeights)
    }

    /// A tap at `x`, `y` (fractions of the zoom-1 picture): the person there becomes the
    /// subject (the smallest box holding the point, the nearer of two overlapping people);
    /// a tap on no one clears the choice, and the rule chooses again. True if someone was chosen.
    @discardableResult
    public mutating func tap(x: Double, y: Double, at time: Double) -> Bool {
        let touched = tracks.filter { $0.isConfirmed && $0.box(at: time).contains(x: x, y: y) }
            .min { $0.box(at: time).area < $1.box(at: time).area }
        subjectID = touched?.id
        subjectTapped = touched != nil
        if touched == nil { chooseSubject(at: time) }
        return touched != nil
    }

    private mutating func chooseSubject(at time: Double) {
        if subjectID != nil && subject == nil { (subjectID, subjectTapped) = (nil, false) }
        // The largest near the centre: a box's height, less for each bit of distance from the middle.
        func score(_ track: PersonTrack) -> Double {
            let box = track.box(at: time)
            let distance = ((box.centreX - 0.5) * (box.centreX - 0.5) + (box.centreY - 0.5) * (box.centreY - 0.5)).squareRoot()
            return box.height * max(1 - 1.5 * distance, 0.05)
        }
        // (Seen lately, or not looked for since: the sweep visits a still person's square now and then.)
        let (recent, hitsToTakeOver) = (recentSeconds, hitsToTakeOver)
        let candidates = tracks.filter { $0.isConfirmed && (time - $0.lastSeen <= recent || $0.missedLooks == 0) }
        let moving = candidates.filter { $0.isMoving(at: time, aspect: aspect) }
        if let current = subject {
            // Kept, unless the rule chose someone standing still and someone else now moves.
            guard !subjectTapped, current.isStill(at: time, aspect: aspect, lately: latelySeconds),
                  let mover = moving.filter({ $0.id != current.id && $0.isSteadilyMoving(at: time, aspect: aspect, hitsNeeded: hitsToTakeOver)
                      && !isPartOfSomeoneElse($0, among: candidates, at: time) })
                    .max(by: { score($0) < score($1) }) else { return }
            subjectID = mover.id
            return
        }
        subjectID = (moving.isEmpty ? candidates : moving).max { score($0) < score($1) }?.id
    }

    /// A box mostly inside a larger person's (their head and shoulders found apart, jumping
    /// about as such boxes do) is no one moving across the scene.
    private func isPartOfSomeoneElse(_ track: PersonTrack, among others: [PersonTrack], at time: Double) -> Bool {
        let box = track.box(at: time)
        return others.contains { other in
            let larger = other.box(at: time)
            return other.id != track.id && larger.height > box.height * 1.5 && box.fraction(inside: larger) >= 0.7
        }
    }

    /// Pairs of (track index, detection index): best pairs first, each track and detection once.
    static func match(_ tracks: [PersonTrack], _ detections: [PersonDetection]) -> [(Int, Int)] {
        var candidates: [(score: Double, track: Int, detection: Int)] = []
        for (t, track) in tracks.enumerated() {
            let predicted = track.motion.box
            for (d, detection) in detections.enumerated() {
                let overlap = predicted.overlap(detection.box)
                if overlap >= minimumOverlap {
                    candidates.append((1 + overlap, t, d))
                    continue
                }
                let larger = max(predicted.height, detection.box.height), smaller = min(predicted.height, detection.box.height)
                let dx = predicted.centreX - detection.box.centreX, dy = predicted.centreY - detection.box.centreY
                let distance = (dx * dx + dy * dy).squareRoot() / larger
                if distance < nearness && smaller * 2 >= larger { candidates.append((1 - distance / nearness, t, d)) }
            }
        }
        // Confirmed tracks choose before tentative ones at the same score.
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : tracks[$0.track].hits > tracks[$1.track].hits }
        var pairs: [(Int, Int)] = [], tracksTaken = Set<Int>(), detectionsTaken = Set<Int>()
        for candidate in candidates where !tracksTaken.contains(candidate.track) && !detectionsTaken.contains(candidate.detection) {
            pairs.append((candidate.track, candidate.detection))
            tracksTaken.insert(candidate.track)
            detectionsTaken.insert(candidate.detection)
        }
        return pairs
    }
}
