import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A phone watching the live view, as the page does: a WebSocket to /live with its pairing's
/// cookie, on a thread of its own, counting the JPEG pictures that come whole.
final class LiveViewer: @unchecked Sendable {
    private let port: Int
    private let token: String
    private let thread: WorkerThread
    private let pictures = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)
    private let failure = Mutex<String?>(nil)

    init(port: Int, token: String, number: Int) {
        (self.port, self.token) = (port, token)
        thread = WorkerThread(name: "bench-viewer\(number)")
    }

    var picturesReceived: Int { pictures.load(ordering: .relaxed) }
    var bytesReceived: Int { bytes.load(ordering: .relaxed) }
    var problem: String? { failure.withLock { $0 } }

    func start() -> Bool { thread.start { self.watch() } }

    func stop() { thread.stop() }

    private func watch() {
        switch TCPConnection.connect(host: "127.0.0.1", port: UInt16(port), milliseconds: 5000) {
        case .failure(let why): failure.withLock { $0 = "cannot connect: \(why)" }
        case .success(let connection):
            var reader = Reader(descriptor: connection.rawValue, thread: thread)
            let request = "GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Cookie: reflex_token=\(token)\r\n\r\n"
            _ = Array(request.utf8).withUnsafeBytes { send(connection.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard let head = reader.head(), head.hasPrefix("HTTP/1.1 101") else {
                failure.withLock { $0 = "no WebSocket" }
                return
            }
            while let (opcode, length) = reader.frame() {
                if opcode == 2 {
                    pictures.add(1, ordering: .relaxed)
                    bytes.add(length, ordering: .relaxed)
                }
            }
        }
    }

    /// Bytes off the socket, waiting a little at a time so the thread sees its stop.
    private struct Reader {
        let descriptor: Int32
        let thread: WorkerThread
        var buffer: [UInt8] = []

        mutating func fill(to count: Int) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while buffer.count < count {
                if thread.isStopping { return false }
                var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard Glibc.poll(&poll, 1, 100) > 0 else { continue }
                let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard got > 0 else { return false }
                buffer += chunk[..<got]
            }
            return true
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard fill(to: count) else { return nil }
            defer { buffer.removeFirst(count) }
            return buffer[..<count]
        }

        /// The answer's head, through its blank line.
        mutating func head() -> String? {
            while true {
                if let end = buffer.indices.dropLast(3).first(where: { buffer[$0..<($0 + 4)] == [13, 10, 13, 10] }) {
                    let text = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeFirst(end + 4)
                    return text
                }
                guard fill(to: buffer.count + 1) else { return nil }
            }
        }

        /// The next frame's opcode and payload length (its payload read and dropped).
        mutating func frame() -> (UInt8, Int)? {
            guard let start = take(2) else { return nil }
            let opcode = start[start.startIndex] & 0x0F
            var length = Int(start[start.startIndex + 1] & 0x7F)
            if length == 126, let extended = take(2) {
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            } else if length == 127, let extended = take(8) {
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            }
            guard take(length) != nil else { return nil }
            return (opcode, length)
        }
    }
}
