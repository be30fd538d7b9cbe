import ReflexCore
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// PTP over the USB still-image class's pipes, on a thread of its own (`reflex-usb`, at the
/// photo thread's background priority): a host's command read whole, its data phase read
/// (and, for what the camera refuses, read to its end and dropped), the responder's answer
/// written — a file's part streamed from the card in chunks, never held whole — then the
/// response. Events go out on `reflex-usb-events`, so a host that never reads them stalls
/// nothing. Whatever a host sends, the camera keeps shooting.
public final class PTPTransport: @unchecked Sendable {
    /// The longest data phase the camera keeps (a property's value, an object's info); a
    /// longer one (SendObject's file) is read and dropped.
    static let longestKeptData = 64 << 10
    /// A file's bytes per read (and about per write: FunctionFS copies each write through a
    /// kernel buffer of its size, so it stays well inside what the kernel gives at once).
    static let chunkBytes = 128 << 10

    private let pipes: PTPPipes
    private let camera: PTPCamera
    private let log: @Sendable (String) -> Void
    private let thread = WorkerThread(name: "reflex-usb", priority: .background)
    private let eventThread = WorkerThread(name: "reflex-usb-events", priority: .background)
    /// Signalled by the camera when the card or a setting changed (a photo saved:
    /// `StatusBoard.photosChanged`): the host hears of it at once.
    public let changed: EventSignal
    /// The responder and the events it found not yet written: answered on `reflex-usb`,
    /// looked at on `reflex-usb-events` too, so events go out while the command thread waits
    /// in a read for the host's next command.
    private let shared = Mutex(Shared())
    private struct Shared {
        var responder = PTPResponder()
        var outbox: [PTPContainer] = []
        /// The card and settings as now: their events kept for the event thread (the oldest
        /// dropped past a bound, for a host that never reads them); how many were dropped.
        mutating func refresh(camera: PTPCamera) -> Int {
            outbox += responder.refresh(camera: camera)
            let over = max(outbox.count - PTPTransport.eventsKept, 0)
            outbox.removeFirst(over)
            return over
        }
    }
    /// Events kept for a host that does not read them yet.
    static let eventsKept = 64
    private let problems = Atomic<Int>(0)

    /// How often the event thread looks at the card and the settings unasked (a card pulled,
    /// a file deleted in review), in milliseconds.
    private let lookEvery: Int32

    /// `changed`: what the camera signals as its card or settings change; `lookEverySeconds`:
    /// how soon a change nothing signals is heard.
    public init(pipes: PTPPipes, camera: PTPCamera, changed: EventSignal = EventSignal(), lookEverySeconds: Double = 1,
                log: @escaping @Sendable (String) -> Void) {
        (self.pipes, self.camera, self.changed, self.log) = (pipes, camera, changed, log)
        lookEvery = Int32(min(lookEverySeconds * 1000, Double(Int32.max)))
    }

    /// Containers refused as malformed since the start (a host's bugs, counted for the log).
    public var malformedContainers: Int { problems.load(ordering: .relaxed) }

    public func start() -> Bool {
        guard eventThread.start({ self.sendEvents() }) else { return false }
        guard thread.start({ self.run() }) else {
            eventThread.stop()
            return false
        }
        return true
    }

    /// Ends both threads. A thread waiting on the host ends when its pipe fails: the caller
    /// unbinds the gadget (every transfer under way fails) or closes the sockets first.
    public func stop() {
        thread.stop()
        eventThread.stop()
    }

    /// The host went away (the gadget was reset or disabled): its session ends.
    public func hostLeft() {
        shared.withLock { $0.responder.hostLeft() }
    }

    private func run() {
        var reader = TransferReader(descriptor: pipes.bulkOut, endsOnEmptyRead: pipes.endsOnEmptyRead)
        while !thread.isStopping {
            guard let command = reader.container() else { return }
            handle(command, reader: &reader)
        }
    }

    private func handle(_ received: TransferReader.Received, reader: inout TransferReader) {
        guard case .container(let command) = received, command.kind == PTPContainer.Kind.command else {
            problems.add(1, ordering: .relaxed)
            if problems.load(ordering: .relaxed) == 1 { log("usb: a host sent what is not a PTP command; refused (said once)") }
            // The transaction it meant is unknown: answer its header's if it has one.
            if case .malformed(let header?) = received {
                write(PTPReply.answering(.generalError).response(transactionID: header.transactionID).encoded())
            }
            return
        }
        var hostData: [UInt8] = []
        if let operation = PTPOperation(rawValue: command.code), operation.hostSendsData {
            guard let data = reader.dataPhase(keepingUpTo: Self.longestKeptData) else { return }
            hostData = data
        }
        let (reply, dropped, eventsWaiting) = shared.withLock { shared in
            // (The objects as the card is now, before the command is answered.)
            let dropped = shared.refresh(camera: camera)
            let reply = shared.responder.answer(command, hostData: hostData, camera: camera)
            return (reply, dropped, !shared.outbox.isEmpty)
        }
        if dropped > 0 { log("usb: the host reads no events; \(dropped) dropped") }
        if eventsWaiting { eventThread.wake() }
        let complete: Bool
        switch reply.data {
        case .none: complete = true
        case .bytes(let bytes):
            complete = write(PTPContainer(kind: .data, code: command.code, transactionID: command.transactionID, payload: bytes).encoded())
        case .file(let path, let offset, let count):
            complete = sendFile(path, offset: offset, count: count, command: command)
        }
        let response = complete ? reply : PTPReply.answering(.incompleteTransfer)
        write(response.response(transactionID: command.transactionID).encoded())
    }

    /// The data phase of a file's part: the header, then the file as it is read, in writes
    /// of whole packets (a short packet would end the transfer) but for the last. A file that
    /// comes short (a card pulled) ends the transfer early with a short packet; the response
    /// then says IncompleteTransfer.
    private func sendFile(_ path: String, offset: UInt64, count: UInt64, command: PTPContainer) -> Bool {
        let header = PTPContainer.header(kind: .data, code: command.code, transactionID: command.transactionID, payloadLength: count)
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            log("usb: \(path) could not be opened for a host: \(String(cString: strerror(errno)))")
            writeAll(header)
            return false
        }
        defer { close(file) }
        var pending = header
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        var sent: UInt64 = 0
        while sent < count {
            let want = Int(min(UInt64(Self.chunkBytes), count - sent))
            let got = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, want, off_t(offset + sent)) }
            guard got > 0 else {
                // A short (or zero-length) packet ends the transfer early.
                writeAll(pending)
                return false
            }
            pending += buffer[..<got]
            sent += UInt64(got)
            // Whole packets now, the rest with the next chunk (or last).
            let whole = sent < count ? pending.count / pipes.packetSize * pipes.packetSize : pending.count
            guard writeAll(Array(pending[..<whole])) else { return false }
            pending.removeFirst(whole)
        }
        if !pending.isEmpty { guard writeAll(pending) else { return false } }
        if (UInt64(header.count) + count) % UInt64(pipes.packetSize) == 0 { return writeAll([]) }
        return true
    }

    /// A whole transfer made in memory: its bytes, then a zero-length packet if it filled
    /// its last packet.
    @discardableResult
    private func write(_ bytes: [UInt8]) -> Bool {
        guard writeAll(bytes) else { return false }
        return bytes.count % pipes.packetSize == 0 ? writeAll([]) : true
    }

    /// `bytes` on bulk in; false if the host went away.
    @discardableResult
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty { return Glibc.write(pipes.bulkIn, nil, 0) >= 0 || errno == EINTR }
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { Glibc.write(pipes.bulkIn, $0.baseAddress! + done, bytes.count - done) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            done += wrote
        }
        return true
    }

    /// Events as the card and the settings change (looked at when the camera signals a
    /// change, when an answer found some, and every `lookEvery`), written as the host reads them:
    /// a host that never reads holds up this thread alone. Ends when the pipe fails.
    private func sendEvents() {
        while !eventThread.isStopping {
            let (events, dropped) = shared.withLock { shared in
                let dropped = shared.refresh(camera: camera)
                defer { shared.outbox = [] }
                return (shared.outbox, dropped)
            }
            if dropped > 0 { log("usb: the host reads no events; \(dropped) dropped") }
            for event in events {
                let bytes = event.encoded()
                let wrote = bytes.withUnsafeBytes { Glibc.write(pipes.interruptIn, $0.baseAddress, bytes.count) }
                if wrote < 0 && errno != EINTR && errno != EAGAIN { return }
            }
            var ready = [pollfd(fd: changed.descriptor, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: eventThread.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&ready, 2, lookEvery) >= 0 || errno == EINTR else { return }
            if ready[0].revents != 0 { changed.drain() }
            if ready[1].revents != 0 { eventThread.drainWake() }
        }
    }
}
