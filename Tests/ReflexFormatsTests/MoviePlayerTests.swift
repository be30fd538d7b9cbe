import ReflexCore
import ReflexTestSupport
import Testing
@testable import ReflexFormats

/// Review's movie playback (issue 34): every picture in order with its time, fitted to the
/// panel; the sound as 16-bit stereo along with it; a seek lands on the picture asked for; a
/// movie cut short (as a power cut leaves one) plays as far as it goes.
@Suite("Movie player")
struct MoviePlayerTests {
    @Test(.tags(.externalTool)) func everyPictureInOrderWithItsSound() throws {
        let folder = TemporaryFolder()
        let player = try MoviePlayer(path: try TestMovie.make(in: folder), fitting: 1280, 800)
        #expect(player.pictureWidth == 1280 && player.pictureHeight == 720 && abs(player.duration - 3) < 0.1)
        #expect(player.sampleRate == 48_000)
        var times: [Double] = [], samples: [Int16] = []
        while player.nextPicture() {
            times.append(player.pictureTime)
            if let sound = player.takeSound() { samples += sound.samples }
        }
        #expect(times.count == 90 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let last = try #require(times.last)
        #expect(abs(last - 89.0 / 30) < 0.01)
        #expect(player.picture.contains { $0 & 0xFF_FFFF != 0 }, "a picture, not black")
        // Stereo at 48 kHz for about the movie's length, a tone (not silence) in it.
        let seconds = Double(samples.count / 2) / 48_000
        #expect(abs(seconds - 3) < 0.15, "\(seconds) s of sound")
        let loudness = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        #expect(loudness > 1000, "RMS \(loudness)")
        #expect(!player.nextPicture(), "the end stays the end")
    }

    @Test(.tags(.externalTool)) func aSeekLandsOnThePictureAsked() throws {
        let folder = TemporaryFolder()
        let player = try MoviePlayer(path: try TestMovie.make(in: folder), fitting: 640, 480)
        player.seek(to: 1.5)
        #expect(abs(player.pictureTime - 1.5) < 1.0 / 30 + 0.001, "at \(player.pictureTime)")
        #expect(player.nextPicture() && player.pictureTime > 1.5)
        player.seek(to: 0.2)
        #expect(abs(player.pictureTime - 0.2) < 1.0 / 30 + 0.001, "back, at \(player.pictureTime)")
        var sound = 0
        while player.nextPicture() { sound += player.takeSound()?.samples.count ?? 0 }
        #expect(Double(sound / 2) / 48_000 > 2.5, "the sound goes on from there")
    }

    @Test(.tags(.externalTool)) func aMovieCutShortPlaysAsFarAsItGoes() throws {
        let folder = TemporaryFolder()
        let whole = try TemporaryFolder.read(try TestMovie.make(in: folder))
        let cut = try folder.write(Array(whole.prefix(whole.count * 6 / 10)), to: "cut.mp4")
        let player = try MoviePlayer(path: cut, fitting: 1280, 800)
        var last = 0.0, count = 0
        while player.nextPicture() {
            last = player.pictureTime
            count += 1
        }
        #expect(count >= 30 && last >= 1 && last < 2.9, "\(count) pictures to \(last) s")
    }
}
