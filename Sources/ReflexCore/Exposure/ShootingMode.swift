/// Auto lets the camera decide; Pro shows the dials (docs/camera.md, Auto and Pro).
public enum ShootingMode: String, Sendable, CaseIterable {
    case auto, pro
}
