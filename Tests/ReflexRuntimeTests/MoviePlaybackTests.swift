import ReflexSystem
import ReflexTestSupport
import Testing
@testable import ReflexRuntime

/// Review's movie playback on a speaker that plays at the test's clock (issue 51: on a slowed
/// board a movie's time stood at 0:00 for good). A fragment holds a second of pictures before
/// their sound: the sound is read ahead, so it plays from the first picture and every picture
/// is shown with its own sound. A review thread held up longer than the speaker's buffer runs
/// it dry: the movie goes on by the clock, the sound starts again with it, and it ends on time.
@Suite("Movie playback")
struct MoviePlaybackTests {
    /// What review's thread did, as the test's loop played it as `Reviewer.playOn` does.
    struct Played {
        /// Each picture shown: its time in the movie and where the movie stood then.
        var shown: [(picture: Double, at: Double)] = []
        var seconds = 0.0
        var finished = false
    }

    /// Plays `playback` to its end (at most 10 s on the clock), review's thread held up once
    /// for `holdUp.seconds` when the clock passes `holdUp.at`.
    static func play(_ playback: MoviePlayback, on clock: ManualClock, holdUp: (at: Double, seconds: Double)? = nil) -> Played {
        var played = Played()
        var heldUp = holdUp == nil
        let start = clock.now
        playback.play()
        while clock.now - start < 10 {
            playback.topUpSound()
            if playback.pictureIsDue() {
                played.shown.append((playback.player.pictureTime, playback.position))
                playback.decodeNext()
            } else if playback.stopIfEnded() {
                played.finished = true
                break
            } else {
                clock.advance(by: max(0.001, min(playback.secondsUntilDue ?? 0.02, 0.02)))
            }
            if !heldUp, let holdUp, clock.now - start >= holdUp.at {
                clock.advance(by: holdUp.seconds)
                heldUp = true
            }
        }
        played.seconds = clock.now - start
        return played
    }

    static func playback(folder: TemporaryFolder, clock: ManualClock) throws -> (MoviePlayback, PacedSpeaker) {
        let speakers = SpeakerBox()
        let playback = try MoviePlayback(path: try TestMovie.make(in: folder), width: 640, height: 360, speakerDevice: "paced",
                                         openSpeaker: { _, rate in speakers.keep(PacedSpeaker(sampleRate: rate, clock: clock)) },
                                         clock: .manual(clock), log: { _ in })
        return (playback, try #require(speakers.speaker))
    }

    @Test(.tags(.externalTool)) func theSoundPlaysFromTheFirstPictureAndEveryPictureKeepsToIt() throws {
        let folder = TemporaryFolder(), clock = ManualClock()
        let (playback, speaker) = try Self.playback(folder: folder, clock: clock)
        let played = Self.play(playback, on: clock)
        #expect(played.finished && played.seconds < 3.2, "ended after \(played.seconds) s on the clock")
        #expect(played.shown.count == 90 && playback.dropped == 0, "\(played.shown.count) shown, \(playback.dropped) passed over")
        let offTime = played.shown.filter { $0.at < $0.picture - 0.001 || $0.at > $0.picture + 1.0 / 30 + 0.025 }
        #expect(offTime.isEmpty, "pictures shown away from their sound: \(offTime.prefix(5))")
        #expect(speaker.starts == 1, "the sound never ran dry: \(speaker.starts) starts")
        let heard = Double(speaker.framesHeard) / 48_000
        #expect(heard > 2.4, "\(heard) s of sound heard")
    }

    @Test(.tags(.externalTool)) func aThreadHeldUpPastTheSpeakersBufferRunsItDryAndTheMovieGoesOn() throws {
        let folder = TemporaryFolder(), clock = ManualClock()
        let (playback, speaker) = try Self.playback(folder: folder, clock: clock)
        let played = Self.play(playback, on: clock, holdUp: (at: 1.2, seconds: 0.8))
        #expect(played.finished && played.seconds < 4.0, "ended after \(played.seconds) s on the clock")
        #expect(speaker.starts == 2, "the sound started again after running dry: \(speaker.starts) starts")
        #expect(playback.dropped > 0, "the pictures of the held-up time passed over")
        let after = played.shown.filter { $0.picture > 2.2 }
        let offTime = after.filter { $0.at < $0.picture - 0.001 || $0.at > $0.picture + 1.0 / 30 + 0.025 }
        #expect(!after.isEmpty && offTime.isEmpty, "after the hold-up, pictures away from their sound: \(offTime.prefix(5))")
        let heard = Double(speaker.framesHeard) / 48_000
        #expect(heard > 2.0, "\(heard) s of sound heard")
    }
}

/// The speaker the playback opened, kept for the test to look at.
private final class SpeakerBox: @unchecked Sendable {
    var speaker: PacedSpeaker?

    func keep(_ speaker: PacedSpeaker) -> PacedSpeaker {
        self.speaker = speaker
        return speaker
    }
}
