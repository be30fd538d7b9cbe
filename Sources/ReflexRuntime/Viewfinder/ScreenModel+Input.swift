import ReflexCore
import ReflexUI

/// What the input changed: the settings, the controls and review as the controller has them,
/// and the framing (the zoom, and where auto-zoom moved the crop).
extension ScreenModel {
    /// The controller's settings are the screen's; geotag just switched on is checked
    /// against gpsd's first answer.
    mutating func settingsChanged(at now: Double) {
        if controller.model.settings.geotag && !state.settings.geotag { geotagCheckUntil = now + ScreenModel.geotagCheckSeconds }
        state.settings = controller.model.settings
    }

    /// The quick menu, the exposure lock and review as the controller has them.
    mutating func followControls() {
        state.menu = controller.menu
        state.exposureLocked = controller.locked
        state.review = controller.review?.screen
    }

    /// The review thread's newest item on screen.
    mutating func showReview(_ info: ReviewInfo?, cardIsEmpty: Bool) {
        controller.showReview(info, cardIsEmpty: cardIsEmpty)
        state.review = controller.review?.screen
    }

    /// Review closed by the camera (nothing to review).
    mutating func closeReview() {
        controller.closeReview()
        state.review = nil
    }

    /// The framing at `now` (the zoom, and where auto-zoom moved the crop), its zoom shown in
    /// tenths. `subject` is auto-zoom's subject predicted to `now`. (The crop moves within the
    /// zoom-1 picture: the camera's own zoom is asked only for what holds it.)
    mutating func frame(_ snapshot: SubjectSnapshot?, available: Bool, at now: Double) -> Framing {
        controller.autoZoomAvailable = available
        let subject = snapshot?.subject(at: now)
        framing = controller.framing(with: &autoZoom, subject: available ? subject : nil, extent: Framing.wholePicture,
                                     at: now)
        state.zoomTenths = Int((framing.zoom * 10).rounded(.down))
        state.autoZoom = switch autoZoom.phase {
        case _ where !available: .unavailable
        case nil: .off
        case .searching: .searching
        case .overridden: .paused
        default: snapshot?.subjectTapped == true ? .followingChosen : .following
        }
        // The people auto-zoom follows, for the marks over the picture.
        people.take(snapshot, subject: subject, following: autoZoom.phase != nil, at: now)
        return framing
    }
}
