import ReflexCore

extension InterfaceController {
    /// What an event did.
    public struct Outcome: Sendable, Equatable {
        /// The settings changed: save them and tell the sensor.
        public var settingsChanged = false
        /// Stops stepped and whether a bound was hit (for haptics and sound).
        public var ticks = 0
        public var bumped = false
        /// A switch of mode or format (or a dial back on Auto): confirmed under the finger.
        public var confirmed = false
        /// The shutter was pressed at this time (the event's own): take a photo.
        public var capture: Double?
        /// Start or stop recording (the record key, or the shutter in Video).
        public var record = false
        /// The half press's lock changed (exposure and white balance held, or let go).
        public var lockChanged = false
        /// A one-line reason to show for a while (what was asked cannot be done).
        public var notice: String?
        /// The photographer answered the save problem's banner.
        public var saveDecision: SaveDecision?
        /// A tap on the picture while auto-zoom is on: the person there becomes its subject
        /// (fractions of the viewfinder's picture; on no one, the choice is cleared).
        public var subjectTap: (x: Double, y: Double)?
        /// For the review thread (open, close, another item, a delete or protect answered).
        public var review: ReviewRequest?
        /// Review's overlay changed (a question asked, the overlay hidden).
        public var reviewChanged = false
        /// Every paired phone is to be forgotten (the quick menu's Forget phones).
        public var forgetPhones = false

        public init() {}

        public static func == (a: Outcome, b: Outcome) -> Bool {
            a.settingsChanged == b.settingsChanged && a.ticks == b.ticks && a.bumped == b.bumped && a.confirmed == b.confirmed
                && a.capture == b.capture && a.record == b.record && a.lockChanged == b.lockChanged && a.notice == b.notice
                && a.saveDecision == b.saveDecision && a.review == b.review && a.reviewChanged == b.reviewChanged
                && a.forgetPhones == b.forgetPhones
                && a.subjectTap?.x == b.subjectTap?.x && a.subjectTap?.y == b.subjectTap?.y
        }

        /// What the hand should feel for this event, if anything.
        public var haptic: HapticEffect? {
            if capture != nil || record { return .shutter }
            if bumped { return .bump }
            if confirmed { return .confirm }
            return ticks > 0 ? .tick : nil
        }
    }
}
