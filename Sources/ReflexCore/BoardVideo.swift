/// How a board records movies (its video.conf): their size (`size = 1080p`, the default, or
/// `720p`, 30 fps either way) and the microphone (`microphone = default`, ALSA's default
/// capture device; an ALSA PCM name such as `plughw:CARD=Device,DEV=0`; or `none`).
public struct BoardVideo: Sendable, Equatable {
    public var format = VideoFormat.fullHD
    /// The ALSA capture device; nil: movies without sound.
    public var microphone: String? = "default"

    public init(format: VideoFormat = .fullHD, microphone: String? = "default") {
        (self.format, self.microphone) = (format, microphone)
    }

    public static func parse(_ text: String) -> Result<BoardVideo, KeyValueText.ConfigurationProblem> {
        var video = BoardVideo()
        let problem = KeyValueText.readConfiguration(text) { key, value in
            switch key {
            case "size":
                guard let format = VideoFormat(named: value) else { return .badValue }
                video.format = format
            case "microphone":
                guard !value.isEmpty, !value.contains(where: \.isWhitespace) else { return .badValue }
                video.microphone = value.lowercased() == "none" ? nil : value
            default: return .unknownKey
            }
            return .accepted
        }
        return problem.map { .failure($0) } ?? .success(video)
    }
}
