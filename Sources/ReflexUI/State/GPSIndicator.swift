import ReflexCore

/// The GPS icon in the top bar while geotag is on (docs/camera.md, Geotagging): solid with a fix,
/// hollow while searching, crossed out when there is no GPS to ask (no gpsd, no receiver).
public enum GPSIndicator: Sendable, Equatable {
    case off, searching, fix, unavailable

    public init(geotag: Bool, status: GPSStatus) {
        guard geotag else { self = .off; return }
        self = switch status {
        case .fix: .fix
        case .serviceNotRunning, .noReceiver: .unavailable
        case .off, .connecting, .searching: .searching
        }
    }
}
