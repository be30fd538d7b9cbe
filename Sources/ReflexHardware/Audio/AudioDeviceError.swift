import CALSA

/// Why an ALSA device (the microphone, the speaker) cannot be opened, in ALSA's words.
public struct AudioDeviceError: Error, CustomStringConvertible, Sendable {
    public let device: String
    public let code: Int32

    public var description: String { "\(device): " + String(cString: snd_strerror(code)) }
}
