import ReflexCore

/// Review's place in the router: opened by the thumbnail or the play key, its own rules
/// (`ReviewController`) taking the touches, the dials and its keys while it is open, the
/// shutter's keys still the camera's.
extension InterfaceController {
    /// An event while review is open.
    mutating func handleInReview(_ event: InputEvent, at now: Double, metered: MeteredValues) -> Outcome {
        // Review's overlay fades as the Pro dials do, and comes back at any touch or turn.
        fade.interact(at: now)
        switch event {
        case .key(let code, let pressed) where code == controls.shutterKeys.full || code == controls.shutterKeys.half
            || controls.recordKeys.contains(code):
            guard pressed else { return handleCamera(event, at: now, metered: metered) }
            // The shutter returns to shooting at once, and does what it always does.
            review = nil
            var outcome = handleCamera(event, at: now, metered: metered)
            outcome.review = .close
            return outcome
        case .key(let code, true) where ReviewController.closes(code, controls: controls):
            var outcome = Outcome()
            closeReview(into: &outcome)
            return outcome
        default:
            let answer = review!.handle(event, at: now, controls: controls)
            var outcome = Outcome()
            outcome.ticks = answer.ticks
            outcome.confirmed = answer.confirmed
            outcome.notice = answer.notice
            outcome.reviewChanged = answer.changed
            if answer.command == .close { closeReview(into: &outcome) } else { outcome.review = answer.command }
            return outcome
        }
    }

    /// The review thread's newest item, for review's rules and overlay.
    public mutating func showReview(_ info: ReviewInfo?, cardIsEmpty: Bool) {
        review?.show(info, cardIsEmpty: cardIsEmpty)
    }

    mutating func openReview(at now: Double, into outcome: inout Outcome) {
        quickMenu.close()
        fade.interact(at: now)
        review = ReviewController(layout: layout)
        outcome.review = .open
        outcome.ticks += 1
    }

    mutating func closeReview(into outcome: inout Outcome) {
        closeReview()
        outcome.review = .close
        outcome.ticks += 1
    }

    /// Review closed from outside its rules (the camera has nothing to review).
    public mutating func closeReview() { review = nil }
}
