/// What the GPS side is doing, for the icon and for the switch's check (docs/camera.md, Geotagging).
public enum GPSStatus: UInt8, Sendable, Equatable {
    /// Geotag is off: gpsd is not asked.
    case off
    /// Connecting to gpsd, not answered yet.
    case connecting
    /// Nothing listens where gpsd should be (or it went away).
    case serviceNotRunning
    /// gpsd answers but has no receiver.
    case noReceiver
    /// A receiver, no fix (yet, or any more).
    case searching
    /// A current fix.
    case fix

    /// Why geotag cannot be turned on, nil when nothing stands in the way (yet).
    public var refusal: String? {
        switch self {
        case .serviceNotRunning: "GPS service not running"
        case .noReceiver: "No GPS receiver"
        default: nil
        }
    }
}
