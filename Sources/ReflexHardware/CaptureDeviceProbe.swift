import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// A V4L2 capture device as `reflex probe` reports it.
public struct CaptureDeviceInfo: Sendable, Equatable {
    public struct Format: Sendable, Equatable {
        public let fourCC: FourCC
        public let description: String
    }

    public let path: String
    public let driver: String
    public let card: String
    public let busInfo: String
    public let formats: [Format]
}

/// Finds V4L2 capture devices: nodes that answer QUERYCAP with the capture capability.
/// Output-only, metadata and codec nodes are skipped.
public enum CaptureDeviceProbe {
    public static func scan(devFolder: String = "/dev") -> (devices: [CaptureDeviceInfo], problems: [String]) {
        var devices: [CaptureDeviceInfo] = []
        var problems: [String] = []
        for path in deviceNodes(in: devFolder, prefix: "video") {
            let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                problems.append("\(path): cannot open (\(errnoDescription()))")
                continue
            }
            defer { close(fd) }
            var capability = v4l2_capability()
            guard ioctl(fd, REFLEX_VIDIOC_QUERYCAP, &capability) == 0 else {
                problems.append("\(path): not a V4L2 device (\(errnoDescription()))")
                continue
            }
            let caps = capability.capabilities & REFLEX_V4L2_CAP_DEVICE_CAPS != 0
                ? capability.device_caps : capability.capabilities
            guard caps & REFLEX_V4L2_CAP_VIDEO_CAPTURE != 0 else { continue }
            devices.append(CaptureDeviceInfo(
                path: path,
                driver: string(fromCArray: capability.driver),
                card: string(fromCArray: capability.card),
                busInfo: string(fromCArray: capability.bus_info),
                formats: formats(of: fd)))
        }
        return (devices, problems)
    }

    private static func formats(of fd: Int32) -> [CaptureDeviceInfo.Format] {
        var formats: [CaptureDeviceInfo.Format] = []
        var description = v4l2_fmtdesc()
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        while ioctl(fd, REFLEX_VIDIOC_ENUM_FMT, &description) == 0 {
            formats.append(.init(fourCC: FourCC(description.pixelformat),
                                 description: string(fromCArray: description.description)))
            description.index += 1
        }
        return formats
    }
}
