/// What an update bundle's signed manifest says of it (RAUC's `rauc info` reads it): the
/// board it is for and the firmware version it installs.
public struct UpdateBundle: Sendable, Equatable {
    /// RAUC's `compatible`: the camera model the bundle is for ("reflex-qemu-x86_64").
    public let compatible: String
    public let version: String
    public let description: String

    public init(compatible: String, version: String, description: String = "") {
        self.compatible = compatible
        self.version = version
        self.description = description
    }

    /// The bundle that `rauc info --output-format=json` describes, nil when the text is not
    /// that JSON or lacks the compatible or the version.
    public init?(raucInfoJSON text: String) {
        guard let info = JSONValue.parse(text), let compatible = info["compatible"]?.string,
              let version = info["version"]?.string else { return nil }
        self.init(compatible: compatible, version: version, description: info["description"]?.string ?? "")
    }
}
