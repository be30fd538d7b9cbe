/// How exact the saved coordinates are (seed 002 story 4.4: precise or approximate).
public enum GeotagPrecision: String, Sendable, CaseIterable {
    case precise, approximate
}
