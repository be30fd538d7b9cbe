import CV4L2
import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A subdevice node (/dev/v4l-subdevN) of a media-controller camera: a sensor, a CSI-2
/// receiver, a lens. Its pads carry bus formats (set with VIDIOC_SUBDEV_S_FMT, ACTIVE), and a
/// sensor's or lens's controls live here rather than on the video node.
final class V4L2Subdevice {
    let path: String
    private let device: FileDescriptor

    init(path: String) throws(CameraError) {
        self.path = path
        do throws(SystemError) {
            device = try FileDescriptor(opening: path, O_RDWR | O_NONBLOCK)
        } catch {
            throw CameraError.from("open", path: path, code: error.code)
        }
    }

    var controls: V4L2ControlChannel { .direct(device.rawValue, path: path) }

    /// The pad's active format.
    func format(pad: UInt32) throws(CameraError) -> MediaBusFormat {
        var request = v4l2_subdev_format()
        request.which = REFLEX_V4L2_SUBDEV_FORMAT_ACTIVE
        request.pad = pad
        try controls.ioctl(REFLEX_VIDIOC_SUBDEV_G_FMT, &request, "read pad \(pad)'s format")
        return MediaBusFormat(request.format)
    }

    /// Asks for a format on a pad; returns what the driver settled on (it may change the
    /// size, or the code: a debayer's source pad makes RGB of whatever Bayer it is given).
    func setFormat(_ format: MediaBusFormat, pad: UInt32) throws(CameraError) -> MediaBusFormat {
        var request = v4l2_subdev_format()
        request.which = REFLEX_V4L2_SUBDEV_FORMAT_ACTIVE
        request.pad = pad
        // The rest (field, colour space) as the pad has it now.
        try controls.ioctl(REFLEX_VIDIOC_SUBDEV_G_FMT, &request, "read pad \(pad)'s format")
        request.format.code = format.code
        request.format.width = UInt32(format.width)
        request.format.height = UInt32(format.height)
        request.format.field = V4L2_FIELD_NONE.rawValue
        try controls.ioctl(REFLEX_VIDIOC_SUBDEV_S_FMT, &request, "set pad \(pad) to \(format)")
        return MediaBusFormat(request.format)
    }

    /// The bus codes a pad can carry (VIDIOC_SUBDEV_ENUM_MBUS_CODE), in the driver's order.
    func busCodes(pad: UInt32) -> [UInt32] {
        var codes: [UInt32] = []
        var request = v4l2_subdev_mbus_code_enum()
        request.pad = pad
        request.which = REFLEX_V4L2_SUBDEV_FORMAT_ACTIVE
        while (try? controls.ioctl(REFLEX_VIDIOC_SUBDEV_ENUM_MBUS_CODE, &request, "list pad \(pad)'s codes")) != nil {
            codes.append(request.code)
            request.index += 1
        }
        return codes
    }
}

extension MediaBusFormat {
    init(_ format: v4l2_mbus_framefmt) {
        self.init(code: format.code, width: Int(format.width), height: Int(format.height))
    }
}
