/// A movie as the camera writes one, made by ffmpeg for tests that play it back: `seconds` of
/// its test pattern at 30 fps with a 440 Hz tone at 48 kHz, H.264 and AAC in a fragmented MP4
/// (a fragment a keyframe a second, each holding its pictures first, then their sound).
public enum TestMovie {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The movie made as `movie.mp4` in `folder`; its path.
    public static func make(in folder: TemporaryFolder, seconds: Int = 3) throws -> String {
        let path = folder.file("movie.mp4")
        let run = try ProgramRun(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=30", "-f", "lavfi",
                                  "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(seconds)", "-c:v", "libx264", "-g", "30",
                                  "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
                                  path])
        guard run.status == 0 else { throw Failure(description: "ffmpeg cannot make the movie: \(run.output)\(run.errors)") }
        return path
    }
}
