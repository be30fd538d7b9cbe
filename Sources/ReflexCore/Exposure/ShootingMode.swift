/// Auto lets the camera decide; Pro shows the dials (seed 000 story 2.1).
public enum ShootingMode: String, Sendable, CaseIterable {
    case auto, pro
}
