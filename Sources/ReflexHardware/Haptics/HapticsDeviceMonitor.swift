import CLibinput

/// udev's announcements of input devices coming and going (after its rules have run, so a new
/// node already has its group and permissions). Nil where udev is not running.
final class HapticsDeviceMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    let descriptor: Int32

    init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev"),
              udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil) >= 0,
              udev_monitor_enable_receiving(monitor) >= 0 else {
            udev_unref(udev)
            return nil
        }
        self.udev = udev
        self.monitor = monitor
        descriptor = udev_monitor_get_fd(monitor)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Hands each waiting announcement with a device node to `handle(action, node)`.
    func receive(_ handle: (String, String) -> Void) {
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            guard let action = udev_device_get_action(device), let node = udev_device_get_devnode(device) else { continue }
            handle(String(cString: action), String(cString: node))
        }
    }
}
