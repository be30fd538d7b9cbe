public enum GPSIndicator: Sendable, Equatable {
    case off, searching, fix
}
