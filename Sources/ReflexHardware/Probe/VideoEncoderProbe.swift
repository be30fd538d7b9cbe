import CV4L2
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Finds the board's H.264 hardware encoder: a V4L2 memory-to-memory device (a Raspberry Pi
/// 0–4's bcm2835-codec, an i.MX's Hantro, a Rockchip's) whose capture queue — where an
/// encoder's output comes out — offers H.264. FFmpeg's h264_v4l2m2m then drives it.
public enum VideoEncoderProbe {
    static let m2m: UInt32 = 0x0000_8000  // V4L2_CAP_VIDEO_M2M
    static let m2mMultiplanar: UInt32 = 0x0000_4000  // V4L2_CAP_VIDEO_M2M_MPLANE
    /// V4L2_PIX_FMT_H264: "H264", least significant byte first.
    static let h264 = UInt32(0x48) | UInt32(0x32) << 8 | UInt32(0x36) << 16 | UInt32(0x34) << 24

    /// The first such device's node, or nil where the board has none.
    public static func memoryToMemoryH264Encoder(devFolder: String = "/dev") -> String? {
        deviceNodes(in: devFolder, prefix: "video").first { encodesH264(path: $0) }
    }

    static func encodesH264(path: String) -> Bool {
        guard let device = try? FileDescriptor(opening: path, O_RDWR | O_NONBLOCK) else { return false }
        var capability = v4l2_capability()
        guard ioctl(device.rawValue, REFLEX_VIDIOC_QUERYCAP, &capability) == 0 else { return false }
        let caps = capability.capabilities & REFLEX_V4L2_CAP_DEVICE_CAPS != 0 ? capability.device_caps : capability.capabilities
        guard caps & (m2m | m2mMultiplanar) != 0 else { return false }
        var description = v4l2_fmtdesc()
        description.type = caps & m2mMultiplanar != 0
            ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue : V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        while retryingOnInterrupt({ ioctl(device.rawValue, REFLEX_VIDIOC_ENUM_FMT, &description) }) == 0 {
            if description.pixelformat == h264 { return true }
            description.index += 1
        }
        return false
    }
}
