import CLibinput
#if canImport(Glibc)
import Glibc
#endif

/// libinput keeps a pointer to its interface for the life of the context, so the interface
/// lives in static memory; its callbacks capture nothing. It is written once, then only
/// read by libinput, so sharing it across threads is safe.
nonisolated(unsafe) private let inputInterface: UnsafeMutablePointer<libinput_interface> = {
    let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    interface.initialize(to: libinput_interface(
        open_restricted: { path, flags, _ in
            let fd = open(path!, flags | O_CLOEXEC)
            return fd >= 0 ? fd : -errno
        },
        close_restricted: { fd, _ in close(fd) }))
    return interface
}()

/// Lists `/dev/input/event*` through libinput's path backend, which needs no seat or
/// udev tagging — so it shows what is there even before the board's udev rules are right.
public enum InputProbe {
    public static func scan(inputFolder: String = "/dev/input") -> (devices: [InputDeviceInfo], problems: [String]) {
        let nodes = deviceNodes(in: inputFolder, prefix: "event")
        guard !nodes.isEmpty else { return ([], []) }
        guard let context = libinput_path_create_context(inputInterface, nil) else {
            return ([], ["libinput: cannot create a context"])
        }
        defer { libinput_unref(context) }
        var devices: [InputDeviceInfo] = []
        var problems: [String] = []
        let named: [(libinput_device_capability, String)] = [
            (LIBINPUT_DEVICE_CAP_TOUCH, "touch"), (LIBINPUT_DEVICE_CAP_POINTER, "pointer"),
            (LIBINPUT_DEVICE_CAP_KEYBOARD, "keyboard"), (LIBINPUT_DEVICE_CAP_TABLET_PAD, "tablet-pad"),
            (LIBINPUT_DEVICE_CAP_SWITCH, "switch"), (LIBINPUT_DEVICE_CAP_GESTURE, "gesture"),
        ]
        for path in nodes {
            guard let device = libinput_path_add_device(context, path) else {
                problems.append("\(path): libinput cannot use it (permissions, or not an input device)")
                continue
            }
            devices.append(InputDeviceInfo(
                path: path,
                name: String(cString: libinput_device_get_name(device)),
                capabilities: named.filter { libinput_device_has_capability(device, $0.0) != 0 }.map(\.1)))
            libinput_path_remove_device(device)
        }
        return (devices, problems)
    }
}
