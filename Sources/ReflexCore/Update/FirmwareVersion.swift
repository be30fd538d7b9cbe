/// A firmware's version, MAJOR.MINOR.PATCH with an optional "+BUILD" (the commit a bundle was
/// made from): ordered by the three numbers alone, as semantic versioning orders them, so two
/// builds of one version are neither older nor newer than each other.
public struct FirmwareVersion: Sendable, Equatable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int
    /// What follows "+", empty when nothing does.
    public let build: String

    public init(major: Int, minor: Int, patch: Int, build: String = "") {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.build = build
    }

    /// The version `text` spells, nil when it is not MAJOR.MINOR.PATCH[+BUILD].
    public init?(_ text: String) {
        let parts = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3,
              numbers.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }),
              let major = Int(numbers[0]), let minor = Int(numbers[1]), let patch = Int(numbers[2]) else { return nil }
        let build = parts.count == 2 ? String(parts[1]) : ""
        guard parts.count == 1 || !build.isEmpty else { return nil }
        self.init(major: major, minor: minor, patch: patch, build: build)
    }

    /// The three numbers, what the photographer is shown ("0.2.0").
    public var release: String { "\(major).\(minor).\(patch)" }

    public var description: String { build.isEmpty ? release : release + "+" + build }

    /// Whether this version's numbers come before `other`'s (builds are not ordered).
    public func isOlder(than other: FirmwareVersion) -> Bool {
        (major, minor, patch) < (other.major, other.minor, other.patch)
    }

    /// Whether the two name one release, whatever their builds.
    public func isSameRelease(as other: FirmwareVersion) -> Bool {
        (major, minor, patch) == (other.major, other.minor, other.patch)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
