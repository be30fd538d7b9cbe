import ReflexSystem

/// Reads a photo or movie back with the programs photographers' software is built on:
/// LibRaw develops a DNG (dcraw_emu), exiftool reads a JPEG's EXIF, ffprobe counts a movie's
/// packets. Each answers nil for a file read whole, else what went wrong.
enum CardFileReader {
    static let tools = ["/usr/bin/dcraw_emu", "/usr/bin/exiftool", "/usr/bin/ffprobe"]

    static func problem(with path: String) -> String? {
        switch path.split(separator: ".").last?.uppercased() {
        case "DNG": dng(path)
        case "JPG": jpeg(path)
        case "MP4": movie(path)
        default: "not a file the camera writes"
        }
    }

    /// LibRaw opens, unpacks and develops the whole raw (to standard output, thrown away);
    /// it says nothing on standard error when all went well (its exit status is 0 either way).
    private static func dng(_ path: String) -> String? {
        guard let run = try? ChildProcess.run(["/usr/bin/dcraw_emu", "-Z", "-", path], timeout: 120,
                                              keepingOutput: false) else {
            return "dcraw_emu did not start"
        }
        guard run.status == 0, run.output.isEmpty else { return "LibRaw: " + summary(run.output, status: run.status) }
        return nil
    }

    private static func jpeg(_ path: String) -> String? {
        guard let run = try? ChildProcess.run(["/usr/bin/exiftool", "-q", "-q", "-s3", "-DateTimeOriginal", "-ImageSize", path],
                                              timeout: 60) else { return "exiftool did not start" }
        let lines = run.output.split(separator: "\n")
        guard run.status == 0, lines.count == 2 else { return "exiftool: " + summary(run.output, status: run.status) }
        return nil
    }

    private static func movie(_ path: String) -> String? {
        guard let run = try? ChildProcess.run(["/usr/bin/ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets",
                                               "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path],
                                              timeout: 120) else { return "ffprobe did not start" }
        guard run.status == 0, let packets = Int(run.output.trimmingWhitespace), packets > 0 else {
            return "ffprobe: " + summary(run.output, status: run.status)
        }
        return nil
    }

    private static func summary(_ output: String, status: Int32?) -> String {
        let said = output.split(separator: "\n").prefix(2).joined(separator: " / ")
        return (said.isEmpty ? "" : said + " ") + (status.map { "(exit \($0))" } ?? "(did not finish)")
    }
}

private extension String {
    var trimmingWhitespace: String { String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
}
