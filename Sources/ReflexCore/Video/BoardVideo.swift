/// How a board records and plays movies (its video.conf): their size (`size = 1080p`, the
/// default, or `720p`, 30 fps either way), the microphone (`microphone = default`, ALSA's
/// default capture device; an ALSA PCM name such as `plughw:CARD=Device,DEV=0`; or `none`)
/// and the speaker review plays their sound on (`speaker = default`, a PCM name, or `none`).
public struct BoardVideo: Sendable, Equatable {
    public var format = VideoFormat.fullHD
    /// The ALSA capture device; nil: movies without sound.
    public var microphone: String? = "default"
    /// The ALSA playback device; nil: movies play silent.
    public var speaker: String? = "default"

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
            case "microphone", "speaker":
                guard !value.isEmpty, !value.contains(where: \.isWhitespace) else { return .badValue }
                let device = value.lowercased() == "none" ? nil : value
                if key == "microphone" { video.microphone = device } else { video.speaker = device }
            default: return .unknownKey
            }
            return .accepted
        }
        return problem.map { .failure($0) } ?? .success(video)
    }
}
