/// The three endpoints PTP runs on (the USB still-image class): bulk out for the host's
/// commands and data, bulk in for the camera's data and responses, interrupt in for events.
/// On a board they are FunctionFS's endpoint files; in a test, one side of socket pairs.
public struct PTPPipes: Sendable {
    public let bulkOut: Int32
    public let bulkIn: Int32
    public let interruptIn: Int32
    /// The bulk endpoints' packet size: a transfer that is a whole number of packets ends
    /// with a zero-length one, so the host knows it ended.
    public let packetSize: Int
    /// A read of nothing is the pipe's end (a socket whose other side closed), not a host's
    /// zero-length packet (FunctionFS's: an endpoint ends with an error instead).
    public let endsOnEmptyRead: Bool

    public init(bulkOut: Int32, bulkIn: Int32, interruptIn: Int32, packetSize: Int, endsOnEmptyRead: Bool) {
        (self.bulkOut, self.bulkIn, self.interruptIn, self.packetSize) = (bulkOut, bulkIn, interruptIn, packetSize)
        self.endsOnEmptyRead = endsOnEmptyRead
    }
}
