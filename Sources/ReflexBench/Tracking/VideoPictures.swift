import ReflexFormats

/// A short clip's pictures, each as 3 bytes a pixel: what the bench's clips are cut from.
struct VideoPictures {
    var width: Int, height: Int
    var pictures: [[UInt8]]

    /// The first `limit` pictures of the video at `path` (all of a shorter one).
    init(path: String, limit: Int = 200) throws {
        let reader = try VideoFileReader(path: path)
        var pictures: [[UInt8]] = []
        repeat {
            try reader.next()
            pictures.append(reader.rgb)
        } while reader.loops == 0 && pictures.count < limit
        // (The reader loops: the picture after the last is the first again.)
        if reader.loops > 0 { pictures.removeLast() }
        (width, height, self.pictures) = (reader.width, reader.height, pictures)
    }

    /// Every fourth picture: enough for a per-pixel median of the scene.
    var sample: [[UInt8]] { stride(from: 0, to: pictures.count, by: 4).map { pictures[$0] } }
}
