import ReflexFormats
import ReflexHardware
import ReflexSystem

/// A movie playing in review's thread: its pictures, each shown when its time comes, and its
/// sound kept queued on the board's speaker, whose played samples are the clock (`clock`,
/// the monotonic one on the camera and a test's own in tests, where there is no speaker or
/// no sound). A picture that comes too late for its time is passed over, counted. Paused,
/// the sound stops at once; played again, it goes on from the picture on screen.
final class MoviePlayback {
    let player: MoviePlayer
    private let speaker: Speaker?
    private let clock: TimeSource
    private(set) var playing = false
    /// Pictures passed over because they were late.
    private(set) var dropped = 0
    /// The movie's end has been shown.
    private(set) var ended = false
    /// A decoded picture waiting in `player.picture` for its time.
    private var pictureWaiting = false
    /// The monotonic time and the movie's position when it last started playing.
    private var startedAt = 0.0, startPosition = 0.0
    /// Where it stands while paused.
    private var pausedAt = 0.0
    /// Sound decoded and not yet written (interleaved stereo), from frame `soundFrom`, and the
    /// movie's time of the first sample written since the start.
    private var sound: [Int16] = []
    private var soundFrom = 0
    private var soundStart: Double?

    /// `path` fitted to the panel, its sound on `speakerDevice` (nil: silent). A speaker that
    /// cannot be opened is said in the log, and the movie plays silent.
    init(path: String, width: Int, height: Int, speakerDevice: String?, clock: TimeSource = .monotonic,
         log: (String) -> Void) throws(MovieError) {
        player = try MoviePlayer(path: path, fitting: width, height)
        self.clock = clock
        var speaker: Speaker?
        if let speakerDevice, player.sampleRate > 0 {
            do {
                speaker = try Speaker(device: speakerDevice, sampleRate: player.sampleRate)
            } catch {
                log("review: no sound: \(error)")
            }
        }
        self.speaker = speaker
        pictureWaiting = player.nextPicture()
    }

    /// Where the movie stands, in seconds.
    var position: Double {
        guard playing else { return pausedAt }
        if let speaker, let soundStart, speaker.framesWritten > 0 { return soundStart + speaker.playedSeconds }
        return startPosition + (clock.now() - startedAt)
    }

    func play() {
        guard !playing else { return }
        if ended || pausedAt >= player.duration - 0.05 {
            // At the end: from the start again.
            seek(to: 0)
        }
        (startedAt, startPosition, playing) = (clock.now(), pausedAt, true)
    }

    func pause() {
        guard playing else { return }
        pausedAt = position
        playing = false
        speaker?.stop()
        (sound, soundFrom, soundStart) = ([], 0, nil)
    }

    /// To `seconds`: its picture waiting to be shown, the sound from there.
    func seek(to seconds: Double) {
        let wasPlaying = playing
        if playing { pause() }
        player.seek(to: seconds)
        pictureWaiting = true
        ended = false
        pausedAt = player.pictureTime
        if wasPlaying { play() }
    }

    /// Whether the waiting picture's time has come: the caller shows `player.picture` now.
    /// (Paused, a picture waits only after a seek: shown at once.)
    func pictureIsDue() -> Bool {
        guard pictureWaiting else { return false }
        guard let due = pictureDueAt else { return true }
        return due <= clock.now()
    }

    /// When review's thread next has something to do for the movie on the clock: show the
    /// waiting picture, or stop at the end once the last was shown (at once); nil: nothing.
    var dueAt: Double? {
        ended && playing && !pictureWaiting ? -.infinity : pictureDueAt
    }

    /// The clock's time at which the waiting picture is due (nil: none waits, or paused):
    /// from the speaker's samples once they play, else from when play started.
    var pictureDueAt: Double? {
        guard playing, pictureWaiting else { return nil }
        if let speaker, soundStart != nil, speaker.framesWritten > 0 { return clock.now() + player.pictureTime - position }
        return startedAt + (player.pictureTime - startPosition)
    }

    /// After the due picture was shown: the next one decoded ahead (those already late passed
    /// over), and its sound gathered.
    func decodeNext() {
        pictureWaiting = false
        guard playing else { return }
        while player.nextPicture() {
            gatherSound()
            // Late by more than a picture's length: this one is passed over.
            if player.pictureTime + 1.0 / 30 >= position {
                pictureWaiting = true
                return
            }
            dropped += 1
        }
        ended = true
        gatherSound()
    }

    /// At the end with nothing left to show: it stops there.
    func stopIfEnded() -> Bool {
        guard ended, playing, !pictureWaiting else { return false }
        pausedAt = player.duration
        playing = false
        return true
    }

    /// What the speaker takes now of the sound waiting.
    func topUpSound() {
        guard playing, let speaker else { return }
        gatherSound()
        soundFrom += speaker.write(sound, from: soundFrom)
        if soundFrom > 96_000 {
            sound.removeFirst(soundFrom * 2)
            soundFrom = 0
        }
    }

    /// Seconds until something is due: the waiting picture, or (with sound) a top-up.
    var secondsUntilDue: Double? {
        guard playing else { return nil }
        let picture = pictureDueAt.map { max(0, $0 - clock.now()) } ?? 0.02
        return speaker == nil ? picture : min(picture, 0.02)
    }

    private func gatherSound() {
        guard let taken = player.takeSound() else { return }
        if soundStart == nil { soundStart = taken.time }
        sound += taken.samples
    }
}
