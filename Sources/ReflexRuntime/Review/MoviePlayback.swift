import ReflexFormats
import ReflexHardware
import ReflexSystem

/// A movie playing in review's thread: its pictures, each shown when its time comes, and its
/// sound read ahead of them and kept queued on the board's speaker, whose played samples are
/// the clock while it plays. Where no sound plays (no speaker, a silent movie, a speaker run
/// dry by a held-up board) `clock` carries the movie on from where the sound left it (the
/// monotonic one on the camera, a test's own in tests), and the sound starts again where the
/// movie then stands, the late part of it passed over. A picture that comes too late for its
/// time is passed over, counted. Paused, the sound stops at once; played again, it goes on
/// from the picture on screen.
final class MoviePlayback {
    let player: MoviePlayer
    private let speaker: (any SoundOutput)?
    private let clock: TimeSource
    private(set) var playing = false
    /// Pictures passed over because they were late.
    private(set) var dropped = 0
    /// The movie's end has been shown.
    private(set) var ended = false
    /// A decoded picture waiting in `player.picture` for its time.
    private var pictureWaiting = false
    /// Where the movie stood on `clock` when the speaker last said so (or play started): the
    /// clock carries it on from there while no sound plays.
    private var anchorPosition = 0.0, anchorAt = 0.0
    /// Where it stands while paused.
    private var pausedAt = 0.0
    /// Sound decoded and not yet written (interleaved stereo) from frame `soundFrom`, and the
    /// movie's time of that frame.
    private var sound: [Int16] = []
    private var soundFrom = 0
    private var soundTime: Double?
    /// The movie's time of the speaker's first frame since it last started from nothing.
    private var speakerOrigin = 0.0
    /// Seconds of sound kept read ahead of where the movie stands (the speaker holds half).
    static let soundAhead = 1.0

    /// `path` fitted to the panel, its sound on `speakerDevice` (nil: silent) opened by
    /// `openSpeaker`. A speaker that cannot be opened is said in the log, and the movie plays
    /// silent.
    init(path: String, width: Int, height: Int, speakerDevice: String?, openSpeaker: SoundOutputOpener = Speaker.opener,
         clock: TimeSource = .monotonic, log: (String) -> Void) throws(MovieError) {
        player = try MoviePlayer(path: path, fitting: width, height)
        self.clock = clock
        var speaker: (any SoundOutput)?
        if let speakerDevice, player.sampleRate > 0 {
            do {
                speaker = try openSpeaker(speakerDevice, player.sampleRate)
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
        if let speaker, speaker.isPlaying { return speakerOrigin + speaker.playedSeconds }
        return anchorPosition + (clock.now() - anchorAt)
    }

    func play() {
        guard !playing else { return }
        if ended || pausedAt >= player.duration - 0.05 {
            // At the end: from the start again.
            seek(to: 0)
        }
        (anchorPosition, anchorAt, playing) = (pausedAt, clock.now(), true)
    }

    func pause() {
        guard playing else { return }
        pausedAt = position
        playing = false
        speaker?.stop()
        (sound, soundFrom, soundTime) = ([], 0, nil)
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

    /// The clock's time at which the waiting picture is due (nil: none waits, or paused).
    var pictureDueAt: Double? {
        guard playing, pictureWaiting else { return nil }
        return clock.now() + player.pictureTime - position
    }

    /// After the due picture was shown: the next one decoded ahead (those already late passed
    /// over).
    func decodeNext() {
        pictureWaiting = false
        guard playing else { return }
        while player.nextPicture() {
            // Late by more than a picture's length: this one is passed over.
            if player.pictureTime + 1.0 / 30 >= position {
                pictureWaiting = true
                return
            }
            dropped += 1
        }
        ended = true
    }

    /// At the end with nothing left to show: it stops there.
    func stopIfEnded() -> Bool {
        guard ended, playing, !pictureWaiting else { return false }
        pausedAt = player.duration
        playing = false
        return true
    }

    /// The sound read on ahead of the movie, and what the speaker takes now of it; a speaker
    /// that is not playing (not yet, or run dry) starts again where the movie stands.
    func topUpSound() {
        guard playing, let speaker else { return }
        let now = position
        (anchorPosition, anchorAt) = (now, clock.now())
        player.readSound(through: now + Self.soundAhead)
        gatherSound()
        if !speaker.isPlaying {
            guard passOverSound(before: now) else { return }
            speaker.stop()
            speakerOrigin = now
        }
        let written = speaker.write(sound, from: soundFrom)
        soundFrom += written
        soundTime = soundTime.map { $0 + Double(written) / Double(player.sampleRate) }
        if written > 0, !speaker.isPlaying { speaker.start() }
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

    /// The player's new sound, after what waits (taken as following on from it).
    private func gatherSound() {
        guard let taken = player.takeSound() else { return }
        if soundFrom * 2 >= sound.count { (sound, soundFrom, soundTime) = ([], 0, taken.time) }
        sound += taken.samples
    }

    /// The sound waiting from before `moment` passed over (heard late, it would no longer go
    /// with the pictures); whether sound for `moment` now waits (false: none, or it is for
    /// later, and the clock goes on until then).
    private func passOverSound(before moment: Double) -> Bool {
        guard let time = soundTime else { return false }
        let rate = Double(player.sampleRate), waiting = sound.count / 2 - soundFrom
        let late = min(waiting, max(0, Int(((moment - time) * rate).rounded(.down))))
        soundFrom += late
        soundTime = time + Double(late) / rate
        return late < waiting && time + Double(late) / rate <= moment + 0.01
    }
}
