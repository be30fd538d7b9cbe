import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// libv4lconvert used on buffers alone, without a device: the reference conversions the
/// benchmark measures the ISP against (and a decoder for formats the ISP does not read).
/// The library insists on a device to ask; its device operations here answer QUERYCAP as a
/// capture device and refuse everything else.
public final class V4LConvert: @unchecked Sendable {
    private let handle: OpaquePointer
    private let operations: UnsafeMutablePointer<libv4l_dev_ops>

    public init?() {
        operations = .allocate(capacity: 1)
        operations.initialize(to: libv4l_dev_ops())
        operations.pointee.ioctl = { _, _, request, argument in
            guard request == REFLEX_VIDIOC_QUERYCAP, let argument else {
                errno = EINVAL
                return -1
            }
            let capability = argument.assumingMemoryBound(to: v4l2_capability.self)
            capability.pointee = v4l2_capability()
            capability.pointee.capabilities = REFLEX_V4L2_CAP_VIDEO_CAPTURE | REFLEX_V4L2_CAP_STREAMING
            capability.pointee.device_caps = capability.pointee.capabilities
            return 0
        }
        guard let created = v4lconvert_create_with_dev_ops(-1, nil, operations) else {
            operations.deallocate()
            return nil
        }
        handle = created
    }

    deinit {
        v4lconvert_destroy(handle)
        operations.deallocate()
    }

    /// Converts one frame; returns the bytes written, or nil with libv4lconvert's message.
    public func convert(_ source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int,
                        from sourceFormat: UInt32, to destinationFormat: UInt32,
                        into destination: UnsafeMutableRawBufferPointer) -> Result<Int, ConversionError> {
        var from = v4l2_format()
        from.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        from.fmt.pix.width = UInt32(width)
        from.fmt.pix.height = UInt32(height)
        from.fmt.pix.pixelformat = sourceFormat
        from.fmt.pix.bytesperline = UInt32(bytesPerLine)
        from.fmt.pix.sizeimage = UInt32(source.count)
        var to = from
        to.fmt.pix.pixelformat = destinationFormat
        to.fmt.pix.bytesperline = 0
        let written = v4lconvert_convert(handle, &from, &to,
                                         UnsafeMutablePointer(mutating: source.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                                         Int32(source.count),
                                         destination.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                         Int32(destination.count))
        guard written >= 0 else { return .failure(ConversionError(message: String(cString: v4lconvert_get_error_message(handle)))) }
        return .success(Int(written))
    }

    public struct ConversionError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
