/// The computer's side of PTP (ISO 15740): a command and its parameters, the camera's data
/// phase read whole or streamed, and its response. What `reflex bench usb` drives a camera
/// with, Reflex's own or another responder on the same bus.
public final class PTPInitiator {
    private let pipes: PTPHostPipes
    /// The last transaction's ID: 0 outside a session and for OpenSession, then 1, 2, …
    private var transaction: UInt32 = 0
    private var inSession = false
    /// One read's room: a data phase's transfers come in pieces this large at most.
    private let buffer: UnsafeMutableRawBufferPointer

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case pipes(PTPHostPipesError)
        /// The camera's bytes were no container, or not the one the transaction needed.
        case protocolError(String)
        /// The camera answered with this response code.
        case refused(operation: UInt16, code: UInt16)

        public var description: String {
            switch self {
            case .pipes(let error): "USB: \(error)"
            case .protocolError(let why): "PTP: \(why)"
            case .refused(let operation, let code):
                "PTP: operation 0x\(String(operation, radix: 16)) answered 0x\(String(code, radix: 16))"
            }
        }
    }

    public init(pipes: PTPHostPipes, readSize: Int = 1 << 20) {
        self.pipes = pipes
        buffer = .allocate(byteCount: readSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Runs `operation` with `parameters`; the data phase's payload (after its header) goes to
    /// `receive` in pieces as it arrives. The response's parameters, or `.refused`.
    @discardableResult
    public func run(_ operation: PTPOperation, _ parameters: [UInt32] = [],
                    receive: (UnsafeRawBufferPointer) -> Void = { _ in }) throws(Failure) -> [UInt32] {
        let id: UInt32 = inSession && operation != .openSession ? transaction + 1 : 0
        transaction = id
        inSession = operation == .openSession || (inSession && operation != .closeSession)
        do {
            try pipes.send(PTPContainer(kind: .command, code: operation.rawValue, transactionID: id, parameters: parameters).encoded())
        } catch { throw .pipes(error) }
        var got = try read()
        var header = try containerHeader(got, transaction: id)
        if header.kind == PTPContainer.Kind.data.rawValue {
            // The data phase: its declared length, then whatever transfers make it up.
            let declared = Int(header.length)
            guard declared >= PTPContainer.headerLength else { throw .protocolError("a data phase declaring \(declared) bytes") }
            var received = got
            receive(UnsafeRawBufferPointer(rebasing: buffer[PTPContainer.headerLength..<min(got, declared)]))
            while received < declared {
                got = try read()
                guard got > 0 else { continue }  // (a zero-length packet ends a whole-packet transfer)
                let useful = min(got, declared - received)
                receive(UnsafeRawBufferPointer(rebasing: buffer[0..<useful]))
                received += got
            }
            repeat { got = try read() } while got == 0
            header = try containerHeader(got, transaction: id)
        }
        guard header.kind == PTPContainer.Kind.response.rawValue else {
            throw .protocolError("a container of kind \(header.kind) where the response was due")
        }
        guard case .success(let response) = PTPContainer.parse(Array(buffer[0..<got])) else {
            throw .protocolError("a malformed response")
        }
        guard response.code == PTPResponseCode.ok.rawValue else { throw .refused(operation: operation.rawValue, code: response.code) }
        return response.parameters
    }

    /// `operation`'s data phase whole (small datasets: the device's info, handles, an object's info).
    public func data(_ operation: PTPOperation, _ parameters: [UInt32] = []) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        try run(operation, parameters) { bytes.append(contentsOf: $0) }
        return bytes
    }

    private func read() throws(Failure) -> Int {
        do { return try pipes.receive(into: buffer) } catch { throw .pipes(error) }
    }

    private func containerHeader(_ count: Int, transaction: UInt32) throws(Failure) -> PTPContainer.Header {
        guard count >= PTPContainer.headerLength else { throw .protocolError("a transfer of \(count) bytes, shorter than a header") }
        let header = PTPContainer.Header(Array(buffer[0..<PTPContainer.headerLength]))
        guard header.transactionID == transaction else {
            throw .protocolError("transaction \(header.transactionID) answered where \(transaction) was asked")
        }
        return header
    }
}
