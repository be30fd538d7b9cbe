import Foundation
import ReflexTestSupport
import Testing

/// `reflex run --remote`: the whole camera on the headless display served to a phone (issue
/// 54), asked over HTTP and a WebSocket as the page does: its status from what the camera's
/// screen shows, Pro and the ISO dial turned from the phone and shown on the camera, the
/// shutter pressed and the photo found on the card and downloaded whole, the live view's
/// pictures. (The phone is one already paired: its token is in the camera's state folder.)
@Suite("reflex run --remote", .tags(.externalTool))
struct RemoteCommandTests {
    static let token = String(repeating: "5a", count: 32)

    /// Asks `path` until `accept` takes the answer (the camera is a debug build beside every
    /// other suite: waits are for events, the limit only a safety net).
    static func waitFor(_ client: RemoteClient, _ path: String, folder: TemporaryFolder, timeout: Double = 300,
                        _ accept: (RemoteClient.Answer) -> Bool) throws -> RemoteClient.Answer? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let answer = try client.request("GET", path, folder: folder)
            if accept(answer) { return answer }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return nil
    }

    @Test func aPairedPhoneSeesTheCameraTurnsItsDialAndTakesAPhoto() throws {
        let state = StateFolder(), folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        try Self.token.appending("\n").write(toFile: state.path + "/remote-phones", atomically: true, encoding: .utf8)
        let port = RemoteClient.freePort()
        let camera = try ScreenCommandTests.RunningCamera(["--sensor", "sim", "--remote", "127.0.0.1:\(port)"], state: state)
        defer { _ = camera.stop() }
        let phone = RemoteClient(port: port, token: Self.token)
        let ready = try Self.waitFor(phone, "/api/status", folder: folder) { $0.status == 200 && $0.text.contains("\"ready\":true") }
        #expect(ready != nil, "the camera's status reached the phone")
        #expect(try RemoteClient(port: port).request("GET", "/api/status", folder: folder).status == 401, "a stranger is refused")

        // Pro, then ISO two detents up: the camera's own HUD says it, so the phone does.
        #expect(try phone.request("POST", "/api/control", form: "action=mode&mode=pro", folder: folder).status == 200)
        #expect(try phone.request("POST", "/api/control", form: "action=turn&dial=iso&steps=2", folder: folder).status == 200)
        let turned = try Self.waitFor(phone, "/api/status", folder: folder) {
            $0.text.contains(#""mode":"pro""#) && $0.text.contains(#"{"label":"ISO","value":"#) && $0.text.contains(#""manual":true"#)
        }
        #expect(turned != nil, "the ISO set from the phone shows on the camera")
        // `--remote` turned Remote on, and a change from the phone keeps it on.
        let saved = try Self.waitFor(phone, "/api/status", folder: folder) { _ in
            (try? String(contentsOfFile: state.path + "/settings.conf", encoding: .utf8))
                .map { $0.contains("mode = pro") && $0.contains("remote = on") } ?? false
        }
        #expect(saved != nil, "Remote stays on in the settings the phone's change saved")

        // The shutter, pressed and let go: the photo on the card, listed and downloaded whole.
        #expect(try phone.request("POST", "/api/control", form: "action=shutter&pressed=1", folder: folder).status == 200)
        #expect(try phone.request("POST", "/api/control", form: "action=shutter&pressed=0", folder: folder).status == 200)
        let listed = try Self.waitFor(phone, "/api/items", folder: folder) { $0.text.contains("RFLX0001.JPG") }
        #expect(listed != nil, "the photo is on the card's index")
        let photo = try phone.request("GET", "/card/100REFLX/RFLX0001.JPG", folder: folder)
        let onCard = try TemporaryFolder.read(state.path + "/DCIM/100REFLX/RFLX0001.JPG")
        #expect(photo.status == 200 && photo.body == onCard && photo.body.starts(with: [0xFF, 0xD8]), "\(photo.body.count) bytes")
        let thumbnail = try phone.request("GET", "/thumb/100REFLX/RFLX0001.JPG", folder: folder)
        #expect(thumbnail.status == 200 && thumbnail.body.starts(with: [0xFF, 0xD8]), "its own thumbnail, as a JPEG")

        // The live view: the status, then pictures of the sensor's (JPEGs about 640 px wide).
        let live = try RemoteClient.Socket(port: port)
        #expect(live.openLive(token: Self.token).hasPrefix("HTTP/1.1 101"))
        var pictures = 0, texts = 0
        while pictures < 3, let frame = live.readFrame() {
            if frame.opcode == 2 {
                #expect(frame.payload.starts(with: [0xFF, 0xD8]) && frame.payload.ends(with: [0xFF, 0xD9]))
                pictures += 1
            } else if frame.opcode == 1 {
                texts += 1
            }
        }
        #expect(pictures == 3 && texts >= 1, "\(pictures) pictures, \(texts) status messages")
        let log = camera.stop()
        #expect(log.contains("remote: serving http://127.0.0.1:\(port)/"), "\(log.suffix(2000))")
    }

    /// The sealed service runs the camera with no privilege at all, as the `reflex` user: its
    /// remote must answer there too. (A child option set as a socket option instead of a TCP
    /// one was SO_DEBUG, which root alone may set: as root it passed, unprivileged every
    /// connection was closed as it came.) Run as root, the test drops to nobody first.
    @Test func theRemoteAnswersACameraWithoutPrivileges() throws {
        let state = StateFolder(), folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        let port = RemoteClient.freePort()
        var arguments = [BuildProducts.folder.appendingPathComponent("reflex").path, "run", "--sensor", "sim", "--display", "none",
                         "--state-dir", state.path, "--storage", state.path, "--remote", "127.0.0.1:\(port)"]
        if getuid() == 0 {
            _ = chown(state.path, 65534, 65534)
            arguments = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all"] + arguments
        }
        let camera = Process()
        camera.executableURL = URL(fileURLWithPath: arguments[0])
        camera.arguments = Array(arguments.dropFirst())
        camera.standardError = FileHandle.nullDevice
        camera.standardOutput = FileHandle.nullDevice
        try camera.run()
        defer { camera.terminate(); camera.waitUntilExit() }
        let answered = try Self.waitFor(RemoteClient(port: port), "/api/status", folder: folder) { $0.status == 401 }
        #expect(answered != nil, "an unpaired phone is answered 401, not cut off")
    }
}
