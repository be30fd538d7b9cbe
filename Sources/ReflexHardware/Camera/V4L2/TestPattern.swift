import CV4L2
import ReflexCore

/// The board's `test-pattern` (sensor.conf) on a sensor's V4L2_CID_TEST_PATTERN menu: a
/// known picture for bringing a board up (is the route right, the Bayer order, the colours)
/// without a scene in front of the lens.
enum TestPattern {
    /// The menu value `wanted` names (trimmed, as the board file gives it): an item's number,
    /// or its name in any case. Nil when the menu has no such item.
    static func value(_ wanted: String, items: [(value: Int64, name: String)]) -> Int64? {
        if let number = Int64(wanted) { return items.contains { $0.value == number } ? number : nil }
        return items.first { $0.name.lowercased() == wanted.lowercased() }?.value
    }

    /// The sensor's test pattern control: V4L2_CID_TEST_PATTERN, else a driver's own menu of
    /// that name (vimc's sensor has one in its private control class).
    static func control(of device: CaptureDeviceInfo) -> CaptureDeviceInfo.Control? {
        device.controls.first { $0.id == REFLEX_V4L2_CID_TEST_PATTERN }
            ?? device.controls.first { $0.type == "menu" && $0.name.lowercased() == "test pattern" }
    }

    /// Sets the pattern; returns the line for the log, saying what was set or why not.
    static func apply(_ wanted: String, to camera: CameraDevice, device: CaptureDeviceInfo) -> String {
        guard let control = control(of: device) else {
            return "the board asks for test pattern \"\(wanted)\", but the sensor has no test pattern control"
        }
        let items = camera.menuItems(control.id)
        guard let value = TestPattern.value(wanted, items: items) else {
            return "the sensor has no test pattern \"\(wanted)\" (it has: "
                + items.map { "\($0.value) \($0.name)" }.joined(separator: ", ") + ")"
        }
        do {
            try camera.setControl(control.id, to: Int32(clamping: value))
        } catch {
            return "cannot set the test pattern: \(error)"
        }
        let name = items.first { $0.value == value }?.name ?? "\(value)"
        return "test pattern \"\(name)\" (\(control.name.lowercased()) = \(value)), as the board asks"
    }
}
