/// One picture of the remote's live view: the viewfinder's, about 640 px on its long side, as
/// JPEG, numbered in order, with its sensor timestamp (the monotonic clock's seconds) so the
/// time from the sensor to the phone can be measured.
public struct LiveFrame: Sendable {
    public let sequence: UInt64
    public let jpeg: [UInt8]
    public let width: Int
    public let height: Int
    public let sensorTime: Double

    public init(sequence: UInt64, jpeg: [UInt8], width: Int, height: Int, sensorTime: Double) {
        (self.sequence, self.jpeg, self.width, self.height, self.sensorTime) = (sequence, jpeg, width, height, sensorTime)
    }
}
