/// One reader of outside bytes, as libFuzzer drives it: the bytes go in, and whatever they
/// are the reader answers (a value or a refusal) without trapping, hanging or taking memory
/// beyond `image-build/fuzz`'s bound. Each target has a seed corpus in Tests/Fuzz/corpus/<name>
/// and, where the format has keywords, Tests/Fuzz/dictionaries/<name>.dict.
public struct FuzzTarget: Sendable {
    public let name: String
    /// What it reads, for `reflex-fuzz list`.
    public let summary: String
    /// The longest input worth trying (libFuzzer's -max_len).
    public let longestInput: Int
    public let run: @Sendable ([UInt8]) -> Void

    public init(_ name: String, _ summary: String, longestInput: Int = 4096, run: @escaping @Sendable ([UInt8]) -> Void) {
        (self.name, self.summary, self.longestInput, self.run) = (name, summary, longestInput, run)
    }

    /// Every target, in the order the script runs them.
    public static let all: [FuzzTarget] = configurationTargets + streamTargets + pictureTargets + cardTargets + remoteTargets
        + tetheringTargets

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
