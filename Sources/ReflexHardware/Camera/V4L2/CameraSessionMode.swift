import ReflexISP

extension CameraSession {
    /// The mode streaming now.
    public struct Mode: Sendable, Equatable {
        public let path: String
        public let card: String
        public let fourCC: UInt32
        public let width: Int
        public let height: Int
        public let bytesPerLine: Int
        /// The Bayer format, nil for a camera that sends finished pictures.
        public let rawFormat: RawFormat?
        public let framesPerSecond: Double?

        public var isMotionJPEG: Bool { fourCC == StreamFormatChoice.motionJPEG || fourCC == StreamFormatChoice.jpeg }
        /// Bytes a whole frame holds (a Motion-JPEG frame is shorter: its own size).
        public var frameBytes: Int { bytesPerLine * height }
        public var rawLayout: RawLayout? {
            rawFormat.map { RawLayout(width: width, height: height, bytesPerLine: bytesPerLine, format: $0) }
        }

        public init(path: String, card: String, fourCC: UInt32, width: Int, height: Int, bytesPerLine: Int,
                    rawFormat: RawFormat?, framesPerSecond: Double?) {
            (self.path, self.card, self.fourCC) = (path, card, fourCC)
            (self.width, self.height, self.bytesPerLine) = (width, height, bytesPerLine)
            (self.rawFormat, self.framesPerSecond) = (rawFormat, framesPerSecond)
        }
    }
}
