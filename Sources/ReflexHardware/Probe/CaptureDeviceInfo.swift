import CV4L2

/// A V4L2 capture device as `reflex probe` reports it.
public struct CaptureDeviceInfo: Sendable, Equatable {
    public struct Format: Sendable, Equatable {
        public let fourCC: FourCC
        public let description: String
        /// Discrete sizes with their frame rates; a stepwise range is given by its corners.
        public let sizes: [FrameSize]
    }

    public struct FrameSize: Sendable, Equatable {
        public let width: Int
        public let height: Int
        /// Frames per second the driver offers at this size (discrete intervals), highest first.
        public let framesPerSecond: [Double]
    }

    /// A control as the driver describes it (QUERY_EXT_CTRL).
    public struct Control: Sendable, Equatable {
        public let id: UInt32
        public let name: String
        public let type: String
        public let minimum: Int64
        public let maximum: Int64
        public let step: UInt64
        public let defaultValue: Int64
        /// The driver says it cannot be set (read-only, or held while streaming).
        public let readOnly: Bool

        public init(id: UInt32, name: String, type: String, minimum: Int64, maximum: Int64, step: UInt64, defaultValue: Int64,
                    readOnly: Bool = false) {
            (self.id, self.name, self.type) = (id, name, type)
            (self.minimum, self.maximum, self.step, self.defaultValue) = (minimum, maximum, step, defaultValue)
            self.readOnly = readOnly
        }

        /// As VIDIOC_QUERY_EXT_CTRL describes it.
        init(_ query: v4l2_query_ext_ctrl) {
            self.init(id: query.id, name: string(fromCArray: query.name),
                      type: CaptureDeviceProbe.typeNames[query.type] ?? "type \(query.type)",
                      minimum: query.minimum, maximum: query.maximum, step: query.step, defaultValue: query.default_value,
                      readOnly: query.flags & (REFLEX_V4L2_CTRL_FLAG_READ_ONLY | REFLEX_V4L2_CTRL_FLAG_GRABBED) != 0)
        }
    }

    /// The same device with its controls' ranges as the camera gives them now: a sensor's
    /// exposure range depends on the mode (its frame length), so it is read again once the
    /// format is set. A control the camera no longer describes keeps its old entry.
    func describingControlsNow(_ camera: CameraDevice) -> CaptureDeviceInfo {
        CaptureDeviceInfo(path: path, driver: driver, card: card, busInfo: busInfo, formats: formats,
                          controls: controls.map { camera.describeControl($0.id) ?? $0 })
    }

    public let path: String
    public let driver: String
    public let card: String
    public let busInfo: String
    public let formats: [Format]
    public let controls: [Control]
}
