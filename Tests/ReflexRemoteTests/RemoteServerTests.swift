import ReflexCore
import ReflexRemote
import ReflexStorage
import ReflexTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The remote's server on a real socket (issue 54), asked by curl as a browser would and by a
/// raw socket for what no client sends: pairing and its token, the lockout, the card's files
/// whole and by Range, names that must not reach a file, a file still being written, delete
/// (a pair as one, protect respected), and requests the server must refuse without harm.
@Suite("Remote server", .tags(.externalTool))
struct RemoteServerTests {
    /// A server on a free port over a card with a RAW+JPEG pair and a movie, and the page.
    struct Bench {
        let folder = TemporaryFolder()
        let camera: RemoteTestCamera
        let server: RemoteServer
        let pairing: RemotePairingKeeper
        var client: RemoteClient
        let jpeg: [UInt8], movie: [UInt8]

        init() throws {
            let card = folder.path + "/card", page = folder.path + "/page"
            try AtomicFile.createFolder(card + "/DCIM/100REFLX")
            try AtomicFile.createFolder(page)
            jpeg = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            movie = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 13 + 1) }
            try AtomicFile.write(jpeg, to: card + "/DCIM/100REFLX/RFLX0001.JPG")
            try AtomicFile.write([1, 2, 3], to: card + "/DCIM/100REFLX/RFLX0001.DNG")
            try AtomicFile.write(movie, to: card + "/DCIM/100REFLX/RFLX0002.MP4")
            try AtomicFile.write([9, 9], to: card + "/DCIM/100REFLX/.RFLX0003.JPG.part")
            try AtomicFile.write(Array("<!doctype html><title>Reflex</title>".utf8), to: page + "/index.html")
            camera = RemoteTestCamera(cardRoot: card)
            pairing = RemotePairingKeeper(file: folder.path + "/phones", log: { _ in })
            server = try RemoteServer(host: "127.0.0.1", port: 0, camera: camera, pairing: pairing, pageFolder: page, log: { _ in })
            client = RemoteClient(port: server.port, token: nil)
        }

        /// Paired with the code the camera shows; the client carries the token after.
        mutating func pair() throws {
            let answer = try client.request("POST", "/api/pair", form: "code=\(pairing.code)", folder: folder)
            let cookie = try #require(answer.headers["set-cookie"])
            client.token = String(cookie.split(separator: ";")[0].split(separator: "=")[1])
        }
    }

    @Test func thePageIsServedAndTheCameraOnlyToAPairedPhone() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        let page = try bench.client.request("GET", "/", folder: bench.folder)
        #expect(page.status == 200 && page.text.contains("Reflex") && page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(try bench.client.request("GET", "/api/status", folder: bench.folder).status == 401)
        #expect(try bench.client.request("GET", "/card/100REFLX/RFLX0001.JPG", folder: bench.folder).status == 401)
        #expect(try bench.client.request("POST", "/api/control", form: "action=shutter&pressed=1", folder: bench.folder).status == 401)
        #expect(bench.camera.controls.withLock { $0.isEmpty }, "nothing done for a stranger")

        let wrong = try bench.client.request("POST", "/api/pair", form: "code=x\(bench.pairing.code)", folder: bench.folder)
        #expect(wrong.status == 403 && wrong.text.contains("\"triesLeft\":4") && wrong.headers["set-cookie"] == nil)
        let code = bench.pairing.code
        let right = try bench.client.request("POST", "/api/pair", form: "code=\(code)", folder: bench.folder)
        let cookie = try #require(right.headers["set-cookie"])
        #expect(right.status == 200 && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        try bench.pair()
        let status = try bench.client.request("GET", "/api/status", folder: bench.folder)
        #expect(status.status == 200 && status.text == #"{"ready":true,"mode":"auto"}"#)

        // A phone stays paired when the camera restarts: its token was kept.
        let again = RemotePairingKeeper(file: bench.folder.path + "/phones", log: { _ in })
        #expect(again.admits(bench.client.token))
    }

    @Test func fiveWrongCodesLockPairingAndSaySoWithRetryAfter() throws {
        let bench = try Bench()
        defer { bench.server.stop() }
        for _ in 0..<4 { #expect(try bench.client.request("POST", "/api/pair", form: "code=abcdef", folder: bench.folder).status == 403) }
        let locked = try bench.client.request("POST", "/api/pair", form: "code=abcdef", folder: bench.folder)
        #expect(locked.status == 429 && locked.headers["retry-after"] == "60")
        let right = try bench.client.request("POST", "/api/pair", form: "code=\(bench.pairing.code)", folder: bench.folder)
        #expect(right.status == 429, "locked for the right code too")
        #expect((bench.pairing.lockedSeconds ?? 0) > 50, "the camera's screen can say so")
    }

    @Test func aFileWholeAndByTheRangeAPlayerAsks() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        try bench.pair()
        let whole = try bench.client.request("GET", "/card/100REFLX/RFLX0002.MP4", folder: bench.folder)
        let wholeMovie = whole.body == bench.movie
        #expect(whole.status == 200 && wholeMovie && whole.headers["accept-ranges"] == "bytes", "\(whole.body.count) bytes")
        #expect(whole.headers["content-type"] == "video/mp4")
        let part = try bench.client.request("GET", "/card/100REFLX/RFLX0002.MP4", headers: ["Range: bytes=1000-1999"], folder: bench.folder)
        let asked = part.body == Array(bench.movie[1000..<2000])
        #expect(part.status == 206 && asked, "\(part.status), \(part.body.count) bytes")
        #expect(part.headers["content-range"] == "bytes 1000-1999/300000")
        let tail = try bench.client.request("GET", "/card/100REFLX/RFLX0002.MP4", headers: ["Range: bytes=-10"], folder: bench.folder)
        #expect(tail.status == 206 && tail.body == Array(bench.movie.suffix(10)))
        let beyond = try bench.client.request("GET", "/card/100REFLX/RFLX0002.MP4", headers: ["Range: bytes=300000-"], folder: bench.folder)
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */300000" && beyond.body.isEmpty)
        let head = try bench.client.request("HEAD", "/card/100REFLX/RFLX0001.JPG", folder: bench.folder)
        #expect(head.status == 200 && head.headers["content-length"] == "5000")
        // A small file after the large one.
        let jpeg = try bench.client.request("GET", "/card/100REFLX/RFLX0001.JPG", folder: bench.folder)
        let same = jpeg.body == bench.jpeg
        #expect(same, "the JPEG: \(jpeg.status), \(jpeg.body.count) bytes")
    }

    @Test func onlyAWholeFileOfTheCardIsOffered() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        try bench.pair()
        for path in ["/card/100REFLX/.RFLX0003.JPG.part", "/card/../../etc/passwd", "/card/100REFLX/../../../etc/passwd",
                     "/card/100REFLX/RFLX0009.JPG", "/../etc/passwd", "/card/100REFLX/%2e%2e/x"] {
            #expect(try bench.client.request("GET", path, folder: bench.folder).status == 404, "\(path)")
        }
        bench.camera.writing.withLock { $0 = bench.camera.cardRoot! + "/DCIM/100REFLX/RFLX0002.MP4" }
        #expect(try bench.client.request("GET", "/card/100REFLX/RFLX0002.MP4", folder: bench.folder).status == 404)
        let items = try bench.client.request("GET", "/api/items", folder: bench.folder)
        #expect(items.status == 200 && items.text.contains("RFLX0001.DNG") && !items.text.contains("RFLX0002"), "\(items.text)")
        #expect(try bench.client.request("DELETE", "/card/100REFLX/RFLX0002.MP4", folder: bench.folder).status == 409)
    }

    @Test func deleteTakesAPairAsOneAndRespectsProtect() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        try bench.pair()
        let root = try #require(bench.camera.cardRoot)
        let movie = try #require(CardCatalog.items(onCardAt: root).first { $0.stem == "RFLX0002" })
        try CardProtection.setProtected(movie, true, onCardAt: root)
        let refused = try bench.client.request("DELETE", "/card/100REFLX/RFLX0002.MP4", folder: bench.folder)
        #expect(refused.status == 403 && access(root + "/DCIM/100REFLX/RFLX0002.MP4", F_OK) == 0)
        let deleted = try bench.client.request("DELETE", "/card/100REFLX/RFLX0001.DNG", folder: bench.folder)
        #expect(deleted.status == 200 && deleted.text.contains("RFLX0001.JPG") && deleted.text.contains("RFLX0001.DNG"))
        #expect(access(root + "/DCIM/100REFLX/RFLX0001.JPG", F_OK) != 0 && access(root + "/DCIM/100REFLX/RFLX0001.DNG", F_OK) != 0)
        #expect(try bench.client.request("DELETE", "/card/100REFLX/RFLX0001.JPG", folder: bench.folder).status == 404)
    }

    @Test func controlsReachTheCameraAndItsRefusalIsSaid() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        try bench.pair()
        #expect(try bench.client.request("POST", "/api/control", form: "action=turn&dial=iso&steps=-2", folder: bench.folder).status == 200)
        let refused = try bench.client.request("POST", "/api/control", form: "action=record", folder: bench.folder)
        #expect(refused.status == 409 && refused.text.contains("no movie here"))
        #expect(try bench.client.request("POST", "/api/control", form: "action=fly", folder: bench.folder).status == 400)
        #expect(try bench.client.request("POST", "/api/control", form: "action=turn&dial=iso&steps=%zz", folder: bench.folder).status == 400)
        #expect(bench.camera.controls.withLock { $0 } == [.turn(.iso, steps: -2), .record])
    }

    @Test func onePhoneControlsTheOthersWatch() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        try bench.pair()
        let first = bench.client
        try bench.pair()
        let second = bench.client
        #expect(first.token != second.token)
        #expect(try first.request("POST", "/api/control", form: "action=mode&mode=pro", folder: bench.folder).status == 200)
        let refused = try second.request("POST", "/api/control", form: "action=mode&mode=auto", folder: bench.folder)
        #expect(refused.status == 409 && refused.text.contains("Another phone has the controls"))
        #expect(try second.request("GET", "/api/status", folder: bench.folder).status == 200, "it may watch")
        #expect(bench.camera.controls.withLock { $0 } == [.mode(.pro)])
        // Every phone forgotten: the holder holds nothing; the one that pairs again controls.
        bench.pairing.forgetEveryPhone()
        try bench.pair()
        #expect(try bench.client.request("POST", "/api/control", form: "action=mode&mode=auto", folder: bench.folder).status == 200)
    }

    @Test func whatNoClientSendsIsRefusedAndTheServerGoesOn() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        try bench.pair()
        let garbage = try RemoteClient.Socket(port: bench.server.port)
        garbage.send([0x16, 0x03, 0x01, 0x00, 0xFF] + [UInt8](repeating: 0xAB, count: 300) + [13, 10, 13, 10])
        #expect(String(decoding: garbage.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 400"))
        let huge = try RemoteClient.Socket(port: bench.server.port)
        huge.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
        #expect(String(decoding: huge.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 4"), "a head over 8 KB")
        let body = String(repeating: "a", count: 5000)
        #expect(try bench.client.request("POST", "/api/control", form: body, folder: bench.folder).status == 413)
        #expect(try bench.client.request("GET", "/api/status", folder: bench.folder).status == 200, "still serving")
    }

    @Test func aPairedPhoneWatchesTheLiveViewOverItsWebSocket() throws {
        var bench = try Bench()
        defer { bench.server.stop() }
        let stranger = try RemoteClient.Socket(port: bench.server.port)
        #expect(!stranger.openLive(token: nil).hasPrefix("HTTP/1.1 101"), "no live view without pairing")
        try bench.pair()
        let phone = try RemoteClient.Socket(port: bench.server.port)
        let head = phone.openLive(token: bench.client.token)
        #expect(head.hasPrefix("HTTP/1.1 101") && head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "\(head)")
        // The status first, then each picture the camera makes.
        let status = try #require(phone.readFrame())
        #expect(status.opcode == 1 && String(decoding: status.payload, as: UTF8.self).contains("ready"))
        var waited = 0
        while bench.camera.watching == 0 && waited < 6000 {
            usleep(10_000)
            waited += 1
        }
        bench.camera.sendPicture(1)
        let picture = try #require(phone.readFrame())
        #expect(picture.opcode == 2 && picture.payload == RemoteTestCamera.picture)
        phone.sendFrame(opcode: 8, [0x03, 0xE8])
        let closing = try #require(phone.readFrame())
        #expect(closing.opcode == 8)
        waited = 0
        while bench.camera.watching > 0 && waited < 6000 {
            usleep(10_000)
            waited += 1
        }
        #expect(bench.camera.watching == 0, "the watch ends with the socket: the camera stops making pictures")
    }
}
