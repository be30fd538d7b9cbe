import ReflexHardware
import Testing

/// The speaker review plays a movie's sound on (issue 34), through real alsa-lib: its null
/// device takes what is written; a device that is not there is refused with ALSA's reason.
@Suite struct SpeakerTests {
    @Test func alsasNullDeviceTakesTheSound() throws {
        let speaker = try Speaker(device: "null", sampleRate: 48_000)
        let tone = (0..<9_600).map { Int16(truncatingIfNeeded: ($0 / 2 % 100) * 300 - 15_000) }
        let written = speaker.write(tone, from: 0)
        #expect(written > 0 && written <= 4_800 && speaker.framesWritten == written)
        #expect(speaker.write(tone, from: 4_800) == 0, "nothing past the end")
        #expect(speaker.playedSeconds >= 0 && speaker.playedSeconds <= Double(written) / 48_000)
        speaker.stop()
        #expect(speaker.framesWritten == 0 && speaker.write(tone, from: 0) > 0, "ready again after a stop")
    }

    @Test func aMissingDeviceIsRefusedWithItsReason() {
        #expect(throws: AudioDeviceError.self) { try Speaker(device: "hw:97,0", sampleRate: 48_000) }
        do {
            _ = try Speaker(device: "hw:97,0", sampleRate: 48_000)
        } catch {
            #expect("\(error)".hasPrefix("hw:97,0: "))
        }
    }
}
