import CALSA

/// Why the microphone cannot be opened, in ALSA's words.
public struct MicrophoneError: Error, CustomStringConvertible, Sendable {
    public let device: String
    public let code: Int32

    public var description: String { "\(device): " + String(cString: snd_strerror(code)) }
}
