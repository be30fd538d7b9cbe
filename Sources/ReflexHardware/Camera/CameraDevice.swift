import CV4L2

/// What the sensor thread needs of a camera. The V4L2 camera is one; the simulated sensor is
/// its twin for machines without a camera, speaking the same V4L2 terms (formats, control
/// ids, sequence numbers), so the code above cannot tell them apart.
public protocol CameraDevice: AnyObject {
    var path: String { get }
    /// Readable when a frame may be dequeued.
    var descriptor: Int32 { get }
    func setFormat(fourCC: UInt32, width: Int, height: Int) throws(CameraError) -> v4l2_pix_format
    func setFrameRate(_ framesPerSecond: Int) throws(CameraError) -> Double?
    func start(bufferCount: Int) throws(CameraError)
    func dequeue() throws(CameraError) -> CapturedFrame?
    func requeue(_ frame: CapturedFrame) throws(CameraError)
    func stop()
    func control(_ id: UInt32) throws(CameraError) -> Int32
    func setControl(_ id: UInt32, to value: Int32) throws(CameraError)
    /// A 64-bit control (PIXEL_RATE), read through the extended-control call.
    func control64(_ id: UInt32) throws(CameraError) -> Int64
    /// The control as the camera describes it now (its range can follow the mode); nil if
    /// it has no such control.
    func describeControl(_ id: UInt32) -> CaptureDeviceInfo.Control?
    /// A menu control's items by value (empty for another kind of control, or none).
    func menuItems(_ id: UInt32) -> [(value: Int64, name: String)]
}

extension CameraDevice {
    public func menuItems(_ id: UInt32) -> [(value: Int64, name: String)] { [] }
}

extension V4L2Camera: CameraDevice {}
