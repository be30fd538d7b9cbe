/// What a frame's embedded data says its exposure was, in the sensor's own units: the
/// coarse integration time in lines and the analogue gain register's code. The camera turns
/// them into seconds and a multiplier with the same line time and gain law its controls use.
public struct EmbeddedExposure: Sendable, Equatable {
    public var lines: Int
    public var gainCode: Int

    public init(lines: Int, gainCode: Int) {
        self.lines = lines
        self.gainCode = gainCode
    }
}
