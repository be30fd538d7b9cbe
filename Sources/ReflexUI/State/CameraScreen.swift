/// Which screen the camera shows.
public enum CameraScreen: Sendable, Equatable {
    /// The live picture with its controls.
    case live
    /// No camera at all: "No camera found".
    case noCamera
    /// The camera went away while streaming: "Camera disconnected — reconnecting".
    case reconnecting
}
