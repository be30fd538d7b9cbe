/// The computer's end of a camera's bulk pipes, as `PTPInitiator` drives them: usbdevfs on a
/// real bus (`USBStillImageHost`), sockets in the tests.
public protocol PTPHostPipes: AnyObject {
    /// Writes one container (a command, or a data phase) to the camera's bulk out.
    func send(_ bytes: [UInt8]) throws(PTPHostPipesError)
    /// Reads one transfer from the camera's bulk in into `buffer` (at most its size): how many
    /// bytes came. A transfer ends at the camera's short packet, so one container's data phase
    /// may take several reads and a response comes in a read of its own.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(PTPHostPipesError) -> Int
}

/// Why the pipes failed: the operation and the system's error number (a timeout is ETIMEDOUT).
public struct PTPHostPipesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let operation: String
    public let code: Int32

    public init(_ operation: String, code: Int32) { (self.operation, self.code) = (operation, code) }

    public var description: String { "\(operation) failed (errno \(code))" }
}
