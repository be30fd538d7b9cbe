import CV4L2
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A V4L2 capture device streaming through memory-mapped buffers, via libv4l2 with its
/// format conversion off. Poll `descriptor` for readability, then `dequeue`; give each frame
/// back with `requeue` once the ISP is done with it. The pool is fixed when streaming starts.
public final class V4L2Camera: @unchecked Sendable {
    public let path: String
    public let descriptor: Int32
    public private(set) var format = v4l2_pix_format()
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var streaming = false

    public init(path: String) throws(CameraError) {
        self.path = path
        let raw = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard raw >= 0 else { throw CameraError.from("open", path: path) }
        let wrapped = v4l2_fd_open(raw, REFLEX_V4L2_DISABLE_CONVERSION)
        guard wrapped >= 0 else {
            let code = errno
            close(raw)
            throw CameraError.from("libv4l2", path: path, code: code)
        }
        descriptor = wrapped
    }

    deinit {
        stop()
        v4l2_close(descriptor)
    }

    /// Asks for a format; returns what the driver settled on (it may adjust the size).
    public func setFormat(fourCC: UInt32, width: Int, height: Int) throws(CameraError) -> v4l2_pix_format {
        var request = v4l2_format()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.fmt.pix.width = UInt32(width)
        request.fmt.pix.height = UInt32(height)
        request.fmt.pix.pixelformat = fourCC
        request.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try ioctl(REFLEX_VIDIOC_S_FMT, &request, "set format \(FourCC(fourCC)) \(width)x\(height)")
        format = request.fmt.pix
        return format
    }

    /// Asks for a frame rate; returns the one the driver chose (nil if it has no say).
    public func setFrameRate(_ framesPerSecond: Int) throws(CameraError) -> Double? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(framesPerSecond))
        guard retryingOnInterrupt({ reflex_v4l2_ioctl(descriptor, REFLEX_VIDIOC_S_PARM, &parameters) }) == 0 else {
            if errno == ENOTTY || errno == EINVAL { return nil }
            throw CameraError.from("set frame rate", path: path)
        }
        let chosen = parameters.parm.capture.timeperframe
        return chosen.numerator > 0 ? Double(chosen.denominator) / Double(chosen.numerator) : nil
    }

    /// Maps `count` buffers, queues them all and starts streaming.
    public func start(bufferCount count: Int = 4) throws(CameraError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try ioctl(REFLEX_VIDIOC_REQBUFS, &request, "request \(count) buffers")
        for index in 0..<Int(request.count) {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            buffer.index = UInt32(index)
            try ioctl(REFLEX_VIDIOC_QUERYBUF, &buffer, "query buffer \(index)")
            guard let mapped = v4l2_mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, descriptor,
                                         Int64(buffer.m.offset)), mapped != MAP_FAILED else {
                throw CameraError.from("map buffer \(index)", path: path)
            }
            buffers.append(UnsafeMutableRawBufferPointer(start: mapped, count: Int(buffer.length)))
            try ioctl(REFLEX_VIDIOC_QBUF, &buffer, "queue buffer \(index)")
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try ioctl(REFLEX_VIDIOC_STREAMON, &type, "start streaming")
        streaming = true
    }

    /// The next filled buffer, or nil when none is ready yet (poll first).
    public func dequeue() throws(CameraError) -> CapturedFrame? {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        if retryingOnInterrupt({ reflex_v4l2_ioctl(descriptor, REFLEX_VIDIOC_DQBUF, &buffer) }) != 0 {
            if errno == EAGAIN { return nil }
            throw CameraError.from("dequeue", path: path)
        }
        let index = Int(buffer.index)
        guard buffers.indices.contains(index) else { throw CameraError.failed("\(path): driver returned buffer \(index)", code: EIO) }
        let used = min(Int(buffer.bytesused), buffers[index].count)
        let timestamp = Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000
        return CapturedFrame(bufferIndex: index,
                             bytes: UnsafeRawBufferPointer(rebasing: buffers[index][0..<used]),
                             sequence: buffer.sequence, timestampNanoseconds: timestamp,
                             timestampMark: buffer.flags & UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_MASK) == UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_SOE)
                                 ? .startOfExposure : .endOfFrame,
                             corrupted: buffer.flags & REFLEX_V4L2_BUF_FLAG_ERROR != 0)
    }

    /// Gives a buffer back to the driver to fill again.
    public func requeue(_ frame: CapturedFrame) throws(CameraError) {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        buffer.index = UInt32(frame.bufferIndex)
        try ioctl(REFLEX_VIDIOC_QBUF, &buffer, "requeue buffer \(frame.bufferIndex)")
    }

    /// Stops streaming and unmaps the buffers; safe to call twice, and after a disconnect.
    public func stop() {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = reflex_v4l2_ioctl(descriptor, REFLEX_VIDIOC_STREAMOFF, &type)
            streaming = false
        }
        for buffer in buffers { _ = v4l2_munmap(buffer.baseAddress, buffer.count) }
        // The buffers freed too: a driver refuses another format while it still has them.
        if !buffers.isEmpty {
            var request = v4l2_requestbuffers()
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            _ = reflex_v4l2_ioctl(descriptor, REFLEX_VIDIOC_REQBUFS, &request)
        }
        buffers.removeAll()
    }

    /// The node takes its formats from the media graph (V4L2_CAP_IO_MC): it can say which
    /// pixel formats hold a bus code.
    var followsMediaGraph: Bool {
        var capability = v4l2_capability()
        guard (try? unconverted.ioctl(REFLEX_VIDIOC_QUERYCAP, &capability, "query capabilities")) != nil else { return false }
        let caps = capability.capabilities & REFLEX_V4L2_CAP_DEVICE_CAPS != 0 ? capability.device_caps : capability.capabilities
        return caps & REFLEX_V4L2_CAP_IO_MC != 0
    }

    /// The pixel formats this node stores bus code `code` in (ENUM_FMT asked with the code;
    /// only a node that follows the media graph answers it).
    func pixelFormats(carrying code: UInt32) -> [UInt32] {
        var formats: [UInt32] = []
        var description = v4l2_fmtdesc()
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        description.mbus_code = code
        while (try? unconverted.ioctl(REFLEX_VIDIOC_ENUM_FMT, &description, "list formats of \(code)")) != nil {
            formats.append(description.pixelformat)
            description.index += 1
        }
        return formats
    }

    public func control(_ id: UInt32) throws(CameraError) -> Int32 { try controls.control(id) }
    public func control64(_ id: UInt32) throws(CameraError) -> Int64 { try controls.control64(id) }
    public func describeControl(_ id: UInt32) -> CaptureDeviceInfo.Control? { controls.describeControl(id) }
    public func setControl(_ id: UInt32, to value: Int32) throws(CameraError) { try controls.setControl(id, to: value) }
    public func menuItems(_ id: UInt32) -> [(value: Int64, name: String)] { controls.menuItems(id) }

    var controlChannel: V4L2ControlChannel { .throughLibv4l2(descriptor, path: path) }
    private var controls: V4L2ControlChannel { controlChannel }
    /// The node itself, past libv4l2 (which answers format questions with its own list; its
    /// descriptor is the node's).
    private var unconverted: V4L2ControlChannel { .direct(descriptor, path: path) }

    private func ioctl<T>(_ request: UInt, _ argument: inout T, _ what: @autoclosure () -> String) throws(CameraError) {
        try controls.ioctl(request, &argument, what())
    }
}
