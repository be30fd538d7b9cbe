import ReflexCore
import ReflexUI

/// The people auto-zoom follows, as marks over the picture: the subject's box (and whether
/// the photographer chose it by a tap) and up to eight others', in fractions of the zoom-1
/// picture. Kept inline: taken in and laid out every frame with no allocation.
struct PeopleMarks {
    private var subjectBox: FractionalBox?
    private var subjectChosen = false
    private var otherBoxes = InlineArray<8, FractionalBox>(repeating: FractionalBox(x: 0, y: 0, width: 0, height: 0))
    private var otherBoxCount = 0

    /// The marks at `now` from auto-zoom's `snapshot` (`subject`: its subject predicted to
    /// `now`); none while auto-zoom is off (`following` false), no others once the snapshot is stale.
    mutating func take(_ snapshot: SubjectSnapshot?, subject: AutoFraming.Subject?, following: Bool, at now: Double) {
        subjectBox = following ? subject?.box : nil
        subjectChosen = snapshot?.subjectTapped == true
        otherBoxCount = 0
        if following, let snapshot, now - snapshot.time < snapshot.staleAfter {
            for index in 0..<snapshot.otherCount { otherBoxes[index] = snapshot.other(index, at: now) }
            otherBoxCount = snapshot.otherCount
        }
    }

    /// The marks laid on `overlay`, where they fall within the picture shown (`crop` of the
    /// zoom-1 picture, on `viewfinder`).
    func lay(on overlay: inout InterfaceRenderer.FrameOverlay, crop: FractionalBox, viewfinder: PixelRect) {
        overlay.subjectBox = subjectBox?.within(crop).pixels(on: viewfinder)
        overlay.subjectChosen = subjectChosen
        for index in 0..<otherBoxCount {
            guard let box = otherBoxes[index].within(crop).pixels(on: viewfinder) else { continue }
            overlay.otherBoxes[overlay.otherBoxCount] = box
            overlay.otherBoxCount += 1
        }
    }
}
