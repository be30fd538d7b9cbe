import ReflexCore
import ReflexUI
import Testing
@testable import ReflexRuntime

/// The marks over the picture for the people auto-zoom follows.
@Suite struct PeopleMarksTests {
    static let viewfinder = PixelRect(x: 0, y: 0, width: 1000, height: 500)
    static let whole = FractionalBox(x: 0, y: 0, width: 1, height: 1)

    static func snapshot(time: Double) -> SubjectSnapshot {
        var snapshot = SubjectSnapshot()
        snapshot.time = time
        snapshot.others[0] = FractionalBox(x: 0.1, y: 0.2, width: 0.1, height: 0.2)
        snapshot.others[1] = FractionalBox(x: 0.7, y: 0.2, width: 0.1, height: 0.2)
        snapshot.otherCount = 2
        snapshot.subjectTapped = true
        return snapshot
    }

    static let subject = AutoFraming.Subject(box: FractionalBox(x: 0.4, y: 0.3, width: 0.2, height: 0.4))

    /// The overlay after the marks took a snapshot made at 5 s.
    static func overlay(subject: AutoFraming.Subject?, following: Bool, at now: Double) -> InterfaceRenderer.FrameOverlay {
        var marks = PeopleMarks()
        marks.take(snapshot(time: 5), subject: subject, following: following, at: now)
        var overlay = InterfaceRenderer.FrameOverlay()
        marks.lay(on: &overlay, crop: whole, viewfinder: viewfinder)
        return overlay
    }

    @Test func whileFollowingTheSubjectAndTheOthersAreMarked() {
        let overlay = Self.overlay(subject: Self.subject, following: true, at: 5)
        #expect(overlay.subjectBox == PixelRect(x: 400, y: 150, width: 200, height: 200))
        #expect(overlay.subjectChosen)
        #expect(overlay.otherBoxCount == 2)
        #expect(overlay.otherBoxes[0] == PixelRect(x: 100, y: 100, width: 100, height: 100))
    }

    @Test func offOrStaleNothingIsMarked() {
        let off = Self.overlay(subject: Self.subject, following: false, at: 5)
        #expect(off.subjectBox == nil && off.otherBoxCount == 0)
        // Following, but the snapshot is older than it may be: the others are not shown.
        let stale = Self.overlay(subject: nil, following: true, at: 5 + SubjectSnapshot.staleSeconds + 1)
        #expect(stale.subjectBox == nil && stale.otherBoxCount == 0)
    }
}
