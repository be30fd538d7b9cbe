import ReflexTestSupport
import ReflexFormats
import ReflexISP

/// A DNG made by the encoder, written to a folder of its own, and what the readers on this
/// machine make of it.
struct EncodedDNG {
    let folder: TemporaryFolder
    let path: String
    let bytes: [UInt8]

    /// Encodes `frame` (laid out as `layout`) with a 256×192 preview made from a picture.
    init(frame: [UInt8], layout: RawLayout, photo: PhotoDescription = TestPhotos.photo,
         description: RawDescription = TestPhotos.description(), compression: DNGCompression = .none) throws {
        let picture = TestPhotos.picture(width: 320, height: 240)
        let preview = picture.withUnsafeBufferPointer {
            let image = RGBImage(pixels: $0.baseAddress!, width: 320, height: 240)
            return ImageDownscaler.downscale(image, width: 256, height: 192)
        }
        bytes = try frame.withUnsafeBytes { raw in
            try preview.withUnsafeBufferPointer { pixels in
                try DNGEncoder.encode(raw: raw.baseAddress!, layout: layout, photo: photo, rawDescription: description,
                                      preview: RGBImage(pixels: pixels.baseAddress!, width: 256, height: 192),
                                      compression: compression)
            }
        }
        folder = TemporaryFolder()
        path = try folder.write(bytes, to: "photo.dng")
    }

    init(_ raw: SyntheticRaw, photo: PhotoDescription = TestPhotos.photo,
         description: RawDescription = TestPhotos.description(), compression: DNGCompression = .none) throws {
        try self.init(frame: raw.bytes, layout: raw.layout, photo: photo, description: description, compression: compression)
    }

    /// LibRaw's `raw-identify -v`; it exits 0 even when it cannot read the file.
    func rawIdentify() throws -> String {
        let run = try ChildProcess.run(["raw-identify", "-v", path])
        guard !run.allText.contains("Cannot decode"), !run.allText.contains("Unsupported") else {
            throw TestFailure("LibRaw cannot read the DNG: \(run.allText)")
        }
        return run.text
    }

    /// dcraw's `-i -v`.
    func dcrawIdentify() throws -> String {
        let run = try ChildProcess.run(["dcraw", "-i", "-v", path])
        guard run.status == 0 else { throw TestFailure("dcraw cannot read the DNG: \(run.allText)") }
        return run.text
    }

    /// The black and white levels dcraw scales with ("Scaling with darkness B, saturation W").
    func dcrawLevels() throws -> (black: Int, white: Int) {
        let run = try ChildProcess.run(["dcraw", "-v", "-h", "-c", path])
        guard let line = run.errorOutput.split(separator: "\n").first(where: { $0.hasPrefix("Scaling with darkness") })
        else { throw TestFailure("dcraw printed no levels: \(run.errorOutput)") }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 2 else { throw TestFailure("no levels in \(line)") }
        return (numbers[0], numbers[1])
    }

    /// The raw values as LibRaw decodes them (`unprocessed_raw`: no black subtracted, no scaling).
    func libRawSamples() throws -> PGMImage {
        let run = try ChildProcess.run(["unprocessed_raw", path])
        guard run.text.contains("Stored to file") else { throw TestFailure("unprocessed_raw failed: \(run.allText)") }
        return try PGMImage(TemporaryFolder.read(path + ".pgm"))
    }

    /// The raw values as dcraw decodes them (`-D -4`: document mode, 16-bit, no scaling).
    func dcrawSamples() throws -> PGMImage {
        let run = try ChildProcess.run(["dcraw", "-D", "-4", path])
        guard run.status == 0 else { throw TestFailure("dcraw cannot decode the DNG: \(run.allText)") }
        return try PGMImage(TemporaryFolder.read(String(path.dropLast(4)) + ".pgm"))
    }

    /// `exiftool -validate -warning -a`: the warnings, one a line (none when it says OK).
    func validationWarnings() throws -> [String] {
        let run = try ChildProcess.run(["exiftool", "-validate", "-warning", "-a", path])
        guard run.text.contains("Validate") else { throw TestFailure("exiftool did not validate: \(run.allText)") }
        return run.text.split(separator: "\n").filter { $0.hasPrefix("Warning") }.map(String.init)
    }

    func tags() throws -> ExiftoolTags { try ExiftoolTags(file: path) }

    /// RawTherapee's rendering with its default profile (`rawtherapee-cli`, a 16-bit TIFF), as
    /// 16-bit RGB samples (through ffmpeg). RawTherapee keeps its settings under HOME: the
    /// test's own folder. One thread: its parallel loops sum floats in whatever order a busy
    /// machine runs them, so two renders of the same values differed by a unit under load.
    func rawTherapeeRender() throws -> [UInt8] {
        let output = folder.path + "/rawtherapee.tif"
        let run = try ChildProcess.run(["env", "HOME=" + folder.path, "OMP_NUM_THREADS=1", "rawtherapee-cli", "-o", output,
                                        "-t", "-b16", "-Y", "-d", "-c", path])
        guard run.status == 0, !run.allText.contains("Error") else {
            throw TestFailure("RawTherapee cannot render the DNG: \(run.allText)")
        }
        return try Self.samples(ofTIFF: output)
    }

    /// darktable's rendering with its defaults (`darktable-cli`, a 16-bit TIFF, its library
    /// in memory and its configuration in the test's folder), as 16-bit RGB samples.
    func darktableRender() throws -> [UInt8] {
        let output = folder.path + "/darktable.tif"
        let run = try ChildProcess.run(["env", "OMP_NUM_THREADS=1", "darktable-cli", path, output, "--core", "--configdir", folder.path + "/darktable",
                                        "--library", ":memory:", "--conf", "plugins/imageio/format/tiff/bpp=16"])
        guard run.status == 0 else { throw TestFailure("darktable cannot render the DNG: \(run.allText)") }
        return try Self.samples(ofTIFF: output)
    }

    /// A TIFF's pixels as 16-bit RGB, through ffmpeg.
    static func samples(ofTIFF path: String) throws -> [UInt8] {
        let pixels = try ChildProcess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb48le", "-"])
        guard pixels.status == 0 else { throw TestFailure("ffmpeg cannot read \(path): \(pixels.errorOutput)") }
        return pixels.output
    }

    /// The text after `label` on the line that starts with it ("Filter pattern: RGGB…" → "RGGB…").
    static func value(of label: String, in text: String) -> String? {
        let line = text.split(separator: "\n").first { $0.hasPrefix(label) }
        return line.map { $0.dropFirst(label.count).split(separator: " ").joined(separator: " ") }
    }
}
