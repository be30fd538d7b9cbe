#if canImport(Glibc)
import Glibc
#endif

/// How the tests reach the server: curl, a real HTTP client, for requests as a browser makes
/// them; a raw TCP socket for what no client sends (garbage, a head too large) and for a
/// WebSocket's frames, read byte by byte.
public struct RemoteClient {
    public let port: Int
    /// The paired phone's cookie, if any.
    public var token: String?

    public init(port: Int, token: String? = nil) {
        (self.port, self.token) = (port, token)
    }

    /// A port no one listens on now (the kernel's choice, let go at once).
    public static func freePort() -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(probe, pointer, length)
                return getsockname(probe, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public struct Answer {
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One request through curl (`--path-as-is`: the path exactly as given).
    public func request(_ method: String = "GET", _ path: String, form: String? = nil, headers: [String] = [],
                 folder: TemporaryFolder) throws -> Answer {
        let headFile = folder.file("head.txt"), bodyFile = folder.file("body.bin")
        var arguments = ["curl", "-s", "--path-as-is", "-X", method, "-D", headFile, "-o", bodyFile, "--max-time", "20"]
        if method == "HEAD" { arguments = ["curl", "-s", "--path-as-is", "-I", "-D", headFile, "-o", bodyFile, "--max-time", "20"] }
        if let token { arguments += ["-H", "Cookie: reflex_token=\(token)"] }
        for header in headers { arguments += ["-H", header] }
        if let form { arguments += ["--data-binary", form, "-H", "Content-Type: application/x-www-form-urlencoded"] }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        _ = try ProgramRun(arguments)
        let head = (folder.read("head.txt") ?? "").split(separator: "\r\n").map(String.init)
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let body = (try? TemporaryFolder.read(bodyFile)) ?? []
        unlink(bodyFile)
        return Answer(status: status, headers: headers, body: body)
    }

    /// A TCP connection to the server, for bytes no client sends.
    public final class Socket {
        public let descriptor: Int32

        public init(port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var timeout = timeval(tv_sec: 120, tv_usec: 0)  // (a net for a hang, not a limit: a busy machine is slow)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw ConnectFailure(errorNumber: errno) }
        }

        deinit { close(descriptor) }

        public func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        public func send(_ text: String) { send(Array(text.utf8)) }

        /// Exactly `count` bytes, or fewer if the connection ends (or 20 s pass).
        public func read(_ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let got = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, count - filled, 0) }
                if got <= 0 { break }
                filled += got
            }
            return Array(bytes[..<filled])
        }

        /// Everything until the server closes (or 20 s pass).
        public func readToEnd() -> [UInt8] {
            var all: [UInt8] = []
            while true {
                let chunk = read(1)
                if chunk.isEmpty { return all }
                all += chunk
            }
        }

        /// An answer's head: up to the blank line.
        public func readHead() -> String {
            var head: [UInt8] = []
            while !head.ends(with: [13, 10, 13, 10]) {
                let byte = read(1)
                if byte.isEmpty { break }
                head += byte
            }
            return String(decoding: head, as: UTF8.self)
        }

        /// One WebSocket frame from the server (unmasked): its opcode and payload.
        public func readFrame() -> (opcode: UInt8, payload: [UInt8])? {
            let start = read(2)
            guard start.count == 2 else { return nil }
            var length = Int(start[1] & 0x7F)
            if length == 126 {
                let extended = read(2)
                length = Int(extended[0]) << 8 | Int(extended[1])
            } else if length == 127 {
                length = read(8).reduce(0) { $0 << 8 | Int($1) }
            }
            return (start[0] & 0x0F, read(length))
        }

        /// Asks for the live view's WebSocket (with `token`'s cookie); the answer's head.
        public func openLive(token: String?) -> String {
            send("GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                 + (token.map { "Cookie: reflex_token=\($0)\r\n" } ?? "") + "\r\n")
            return readHead()
        }

        /// A masked frame, as a browser sends one.
        public func sendFrame(opcode: UInt8, _ payload: [UInt8]) {
            let mask: [UInt8] = [1, 2, 3, 4]
            var frame: [UInt8] = [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
            send(frame)
        }
    }
}

/// The server could not be reached.
public struct ConnectFailure: Error {
    public let errorNumber: Int32
}

extension Array where Element == UInt8 {
    public func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
