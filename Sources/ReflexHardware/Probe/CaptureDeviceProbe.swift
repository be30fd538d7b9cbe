import CV4L2
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Finds V4L2 capture devices: nodes that answer QUERYCAP with the capture capability.
/// Output-only, metadata and codec nodes are skipped.
public enum CaptureDeviceProbe {
    public static func scan(devFolder: String = "/dev") -> (devices: [CaptureDeviceInfo], problems: [String]) {
        var devices: [CaptureDeviceInfo] = []
        var problems: [String] = []
        for path in deviceNodes(in: devFolder, prefix: "video") {
            switch describe(path: path) {
            case .success(let device?): devices.append(device)
            case .success(nil): continue  // not a capture node
            case .failure(let problem): problems.append(problem.message)
            }
        }
        return (devices, problems)
    }

    public struct Problem: Error { public let message: String }

    /// One node: its capture formats and controls; nil when it is not a capture device.
    public static func describe(path: String) -> Result<CaptureDeviceInfo?, Problem> {
        do throws(SystemError) {
            let device = try FileDescriptor(opening: path, O_RDWR | O_NONBLOCK)
            return describe(device.rawValue, path: path)
        } catch {
            return .failure(Problem(message: "\(path): cannot open (\(error.reason))"))
        }
    }

    private static func describe(_ fd: Int32, path: String) -> Result<CaptureDeviceInfo?, Problem> {
        var capability = v4l2_capability()
        do throws(SystemError) {
            _ = try systemCall("query capabilities") { ioctl(fd, REFLEX_VIDIOC_QUERYCAP, &capability) }
        } catch {
            return .failure(Problem(message: "\(path): not a V4L2 device (\(error.reason))"))
        }
        let caps = capability.capabilities & REFLEX_V4L2_CAP_DEVICE_CAPS != 0
            ? capability.device_caps : capability.capabilities
        guard caps & REFLEX_V4L2_CAP_VIDEO_CAPTURE != 0 else { return .success(nil) }
        return .success(CaptureDeviceInfo(
            path: path,
            driver: string(fromCArray: capability.driver),
            card: string(fromCArray: capability.card),
            busInfo: string(fromCArray: capability.bus_info),
            formats: formats(of: fd),
            controls: V4L2ControlChannel.direct(fd, path: path).allControls()))
    }

    static let typeNames: [UInt32: String] = [
        1: "int", 2: "bool", 3: "menu", 4: "button", 5: "int64", 7: "string", 8: "bitmask", 9: "intmenu",
    ]
    private static func formats(of fd: Int32) -> [CaptureDeviceInfo.Format] {
        var formats: [CaptureDeviceInfo.Format] = []
        var description = v4l2_fmtdesc()
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        while retryingOnInterrupt({ ioctl(fd, REFLEX_VIDIOC_ENUM_FMT, &description) }) == 0 {
            formats.append(.init(fourCC: FourCC(description.pixelformat),
                                 description: string(fromCArray: description.description),
                                 sizes: sizes(of: fd, fourCC: description.pixelformat)))
            description.index += 1
        }
        return formats
    }

    private static func sizes(of fd: Int32, fourCC: UInt32) -> [CaptureDeviceInfo.FrameSize] {
        var sizes: [CaptureDeviceInfo.FrameSize] = []
        var size = v4l2_frmsizeenum()
        size.pixel_format = fourCC
        while retryingOnInterrupt({ ioctl(fd, REFLEX_VIDIOC_ENUM_FRAMESIZES, &size) }) == 0 {
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let (w, h) = (Int(size.discrete.width), Int(size.discrete.height))
                sizes.append(.init(width: w, height: h, framesPerSecond: rates(of: fd, fourCC: fourCC, width: w, height: h)))
            } else {
                // Stepwise or continuous: the smallest and the largest are what a person needs.
                let s = size.stepwise
                for (w, h) in [(Int(s.min_width), Int(s.min_height)), (Int(s.max_width), Int(s.max_height))] {
                    sizes.append(.init(width: w, height: h, framesPerSecond: rates(of: fd, fourCC: fourCC, width: w, height: h)))
                }
                break
            }
            size.index += 1
        }
        return sizes
    }

    private static func rates(of fd: Int32, fourCC: UInt32, width: Int, height: Int) -> [Double] {
        var rates: [Double] = []
        var interval = v4l2_frmivalenum()
        interval.pixel_format = fourCC
        interval.width = UInt32(width)
        interval.height = UInt32(height)
        while retryingOnInterrupt({ ioctl(fd, REFLEX_VIDIOC_ENUM_FRAMEINTERVALS, &interval) }) == 0 {
            let fraction = interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue ? interval.discrete : interval.stepwise.min
            if fraction.numerator > 0 { rates.append(Double(fraction.denominator) / Double(fraction.numerator)) }
            if interval.type != V4L2_FRMIVAL_TYPE_DISCRETE.rawValue { break }
            interval.index += 1
        }
        return rates.sorted(by: >)
    }
}
