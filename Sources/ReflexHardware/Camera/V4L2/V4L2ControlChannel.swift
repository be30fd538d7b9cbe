import CV4L2
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The control ioctls of one V4L2 node: a streaming video node (through libv4l2, which owns
/// its descriptor) or any other (a subdevice, /dev/v4l-subdevN, which libv4l2 does not
/// know; a node opened only to be described). A
/// media-controller camera has its sensor's controls on one and its lens's on another.
struct V4L2ControlChannel {
    typealias Call = (Int32, UInt, UnsafeMutableRawPointer) -> Int32

    let descriptor: Int32
    let path: String
    let call: Call

    static func throughLibv4l2(_ descriptor: Int32, path: String) -> V4L2ControlChannel {
        V4L2ControlChannel(descriptor: descriptor, path: path) { reflex_v4l2_ioctl($0, $1, $2) }
    }

    static func direct(_ descriptor: Int32, path: String) -> V4L2ControlChannel {
        V4L2ControlChannel(descriptor: descriptor, path: path) { reflex_plain_ioctl($0, $1, $2) }
    }

    func control(_ id: UInt32) throws(CameraError) -> Int32 {
        var control = v4l2_control(id: id, value: 0)
        try ioctl(REFLEX_VIDIOC_G_CTRL, &control, "read control \(id)")
        return control.value
    }

    func control64(_ id: UInt32) throws(CameraError) -> Int64 {
        var control = v4l2_ext_control()
        control.id = id
        return try withUnsafeMutablePointer(to: &control) { (pointer) throws(CameraError) -> Int64 in
            var controls = v4l2_ext_controls()
            controls.which = UInt32(V4L2_CTRL_WHICH_CUR_VAL)
            controls.count = 1
            controls.controls = pointer
            try ioctl(REFLEX_VIDIOC_G_EXT_CTRLS, &controls, "read control \(id)")
            return pointer.pointee.value64
        }
    }

    func describeControl(_ id: UInt32) -> CaptureDeviceInfo.Control? {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        guard (try? ioctl(REFLEX_VIDIOC_QUERY_EXT_CTRL, &query, "describe control \(id)")) != nil else { return nil }
        return CaptureDeviceInfo.Control(query)
    }

    func setControl(_ id: UInt32, to value: Int32) throws(CameraError) {
        var control = v4l2_control(id: id, value: value)
        try ioctl(REFLEX_VIDIOC_S_CTRL, &control, "set control \(id) to \(value)")
    }

    /// A menu control's items, by value (VIDIOC_QUERYMENU; gaps in the menu are skipped).
    func menuItems(_ id: UInt32) -> [(value: Int64, name: String)] {
        guard let control = describeControl(id), control.type == "menu" else { return [] }
        var items: [(Int64, String)] = []
        for value in control.minimum...min(control.maximum, control.minimum + 255) {
            var item = v4l2_querymenu()
            item.id = id
            item.index = UInt32(truncatingIfNeeded: value)
            guard retryingOnInterrupt({ call(descriptor, REFLEX_VIDIOC_QUERYMENU, &item) }) == 0 else { continue }
            items.append((value, withUnsafeBytes(of: item.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }))
        }
        return items
    }

    /// Every control the node has (class headers and disabled controls left out).
    func allControls() -> [CaptureDeviceInfo.Control] {
        var controls: [CaptureDeviceInfo.Control] = []
        var query = v4l2_query_ext_ctrl()
        query.id = REFLEX_V4L2_CTRL_FLAG_NEXT_CTRL | REFLEX_V4L2_CTRL_FLAG_NEXT_COMPOUND
        while retryingOnInterrupt({ call(descriptor, REFLEX_VIDIOC_QUERY_EXT_CTRL, &query) }) == 0 {
            if query.type != V4L2ControlChannel.controlClassType && query.flags & REFLEX_V4L2_CTRL_FLAG_DISABLED == 0 {
                controls.append(.init(query))
            }
            query.id |= REFLEX_V4L2_CTRL_FLAG_NEXT_CTRL | REFLEX_V4L2_CTRL_FLAG_NEXT_COMPOUND
        }
        return controls
    }

    /// Class headers group controls in the driver's list; they are not controls.
    private static let controlClassType: UInt32 = 6

    func ioctl<T>(_ request: UInt, _ argument: inout T, _ what: @autoclosure () -> String) throws(CameraError) {
        let result = withUnsafeMutablePointer(to: &argument) { pointer in
            retryingOnInterrupt { call(descriptor, request, UnsafeMutableRawPointer(pointer)) }
        }
        guard result != 0 else { return }
        let code = errno
        throw CameraError.from(what(), path: path, code: code)
    }
}
