import ArgumentParser
import ReflexCore
import ReflexRemote
import ReflexRuntime
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The remote as figures (issue 54): the realtime loop (bench frame) with no phone, one and
/// three watching the live view, their pictures a second and the time from the sensor to the
/// socket; a 25 MB DNG downloaded over the loopback beside Debian's nginx serving the same
/// file in the same run; and the shutter pressed from a phone (`PhoneShutterBench`).
struct RemoteBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote", abstract: "Benchmark the remote: live view to phones, the loop beside it, downloads, the shutter.")

    @Option(help: "Frames the loop presents for each count of phones (60 a second).") var frames = 1200
    @Option(help: "The test data folder (default: the repository's Tests/Data).") var testdata: String?
    @Option(help: "The DNG's size for the download, in MB.") var megabytes = 25
    @Option(help: "Downloads of it from each server (alternately; the median of each).") var downloads = 21
    @Option(help: "Shutter presses from the phone.") var presses = 30

    func run() throws {
        for viewers in [0, 1, 3] {
            print(viewers == 0 ? "The loop with no phone watching:" : "The loop with \(viewers) phone\(viewers == 1 ? "" : "s") watching:")
            var arguments = ["--frames", String(frames), "--remote-viewers", String(viewers)]
            if let testdata { arguments += ["--testdata", testdata] }
            let bench = try FrameBench.parse(arguments)
            try bench.run()
        }
        try downloadsBesideNginx()
        let work = "/tmp/reflex-bench-phone-shutter-\(getpid())"
        defer { _ = system("rm -rf '\(work)'") }
        try PhoneShutterBench(presses: presses, folder: work).run()
    }

    /// The same file from the remote (a paired phone's request, the card's item) and from
    /// nginx, alternately, each timed by curl.
    private func downloadsBesideNginx() throws {
        let folder = "/tmp/reflex-bench-remote-\(getpid())"
        defer { _ = system("rm -rf '\(folder)'") }
        let card = folder + "/card", name = "RFLX0001.DNG"
        try AtomicFile.createFolder(card + "/DCIM/100REFLX")
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<(megabytes << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        try AtomicFile.write(bytes, to: card + "/DCIM/100REFLX/" + name)
        print("Downloads of a \(megabytes) MB DNG over the loopback (curl, \(downloads) each, alternately):")
        let liveView = LiveView(log: { _ in })
        let camera = CameraRemote(liveView: liveView, loop: { nil }, cardRoot: { card }, movies: nil)
        let pairing = RemotePairingKeeper(file: nil, log: { _ in })
        let server = try RemoteServer(host: "127.0.0.1", port: 0, camera: camera, pairing: pairing, pageFolder: folder,
                                      log: { print("  remote: \($0)") })
        defer { server.stop() }
        guard case .paired(let token) = pairing.pair(code: pairing.code) else { throw BenchError("cannot pair") }
        let nginx = try Nginx(root: card, folder: folder)
        defer { nginx.stop() }
        var ours: [Double] = [], theirs: [Double] = []
        for _ in 0..<downloads {
            ours.append(try Self.download("http://127.0.0.1:\(server.port)/card/100REFLX/\(name)", cookie: "reflex_token=" + token))
            if let port = nginx.port { theirs.append(try Self.download("http://127.0.0.1:\(port)/DCIM/100REFLX/\(name)", cookie: nil)) }
        }
        func megabytesASecond(_ seconds: [Double]) -> Double { Double(megabytes) / seconds.sorted()[seconds.count / 2] }
        print("  the remote: \(Formatting.fixed(megabytesASecond(ours), 0)) MB/s (median)")
        if theirs.isEmpty {
            print("  reference: nginx is not installed here (apt-get install nginx-light): no reference")
        } else {
            print("  reference: nginx, sendfile: \(Formatting.fixed(megabytesASecond(theirs), 0)) MB/s (median); the remote at "
                  + "\(Formatting.fixed(megabytesASecond(ours) / megabytesASecond(theirs), 2))× (target ≥ 0.8×)")
        }
    }

    /// Seconds curl took for the whole file (it must come whole: 200 and every byte).
    private static func download(_ url: String, cookie: String?) throws -> Double {
        let arguments = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download} %{time_total}"]
            + (cookie.map { ["-b", $0] } ?? []) + [url]
        let (status, output) = try ChildProcess.run(arguments, timeout: 120)
        let words = output.split(separator: " ")
        guard status == 0, words.count == 3, words[0] == "200", let seconds = Double(words[2].filter { $0 != "\n" }) else {
            throw BenchError("\(url): \(output)")
        }
        return seconds
    }
}

/// Debian's nginx serving a folder on a free loopback port, in the foreground, as this user,
/// for as long as the bench needs it (nil port: not installed).
private struct Nginx {
    let port: Int?
    private let pid: pid_t?

    init(root: String, folder: String) throws {
        guard access("/usr/sbin/nginx", X_OK) == 0 else {
            (port, pid) = (nil, nil)
            return
        }
        let port = Int.random(in: 20000...40000)
        let configuration = """
            daemon off; master_process off; worker_processes 1; pid \(folder)/nginx.pid;
            error_log \(folder)/nginx-error.log;
            events {}
            http { access_log off; sendfile on; tcp_nopush on; client_body_temp_path \(folder)/body;
                   proxy_temp_path \(folder)/proxy; fastcgi_temp_path \(folder)/fastcgi; uwsgi_temp_path \(folder)/uwsgi;
                   scgi_temp_path \(folder)/scgi;
                   server { listen 127.0.0.1:\(port); root \(root); } }
            """
        try AtomicFile.write(Array(configuration.utf8), to: folder + "/nginx.conf")
        // (Its output's pipe closes at once: nginx writes to its error log.)
        let pid = try ChildProcess.start(["/usr/sbin/nginx", "-p", folder, "-c", folder + "/nginx.conf"]).pid
        // Listening once a connection is taken.
        let deadline = monotonicSeconds() + 10
        while monotonicSeconds() < deadline {
            if case .success = TCPConnection.connect(host: "127.0.0.1", port: UInt16(port), milliseconds: 200) { break }
            usleep(50_000)
        }
        (self.port, self.pid) = (port, pid)
    }

    func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
