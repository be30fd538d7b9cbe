/// What Auto is using right now. A dial that leaves Auto starts from these, so the first
/// step moves one stop from what the photographer was seeing.
public struct MeteredValues: Sendable, Equatable {
    public var iso: ISOSpeed
    public var exposureSeconds: Double
    public var focus: FocusPosition
    public var kelvin: Int

    public init(iso: ISOSpeed, exposureSeconds: Double, focus: FocusPosition, kelvin: Int) {
        self.iso = iso
        self.exposureSeconds = exposureSeconds
        self.focus = focus
        self.kelvin = kelvin
    }
}
