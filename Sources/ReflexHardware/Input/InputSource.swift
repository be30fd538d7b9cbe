import CLibinput
import ReflexCore
import ReflexISP
#if canImport(Glibc)
import Glibc
#endif

/// The touchscreen, dials and buttons through libinput on seat0 (udev finds and tags them;
/// devices that come and go are picked up by libinput itself). Made before the realtime loop's
/// thread starts and used only by it from then on: poll `descriptor`, then `dispatch`.
public final class InputSource: @unchecked Sendable {
    private let udev: OpaquePointer
    private let context: OpaquePointer
    /// libinput keeps this pointer: it must live as long as the context.
    private let interface: UnsafeMutablePointer<libinput_interface>
    /// The board's encoders: a wheel device's udev property REFLEX_DIAL (Board/<board>/*.rules),
    /// or its name, is looked up in `encoderNames` (BoardControls); any other wheel (a USB
    /// knob, a mouse) is -1, which turns the selected dial.
    private var dials: [(device: OpaquePointer, index: Int)] = []
    private let encoderNames: [String]
    public let descriptor: Int32

    public init(seat: String = "seat0", encoderNames: [String] = ["1", "2"]) throws(DisplayError) {
        self.encoderNames = encoderNames
        guard let udev = udev_new() else { throw DisplayError("input: udev is not available") }
        interface = .allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, _ in
                let fd = open(path!, flags | O_CLOEXEC)
                return fd < 0 ? -errno : fd
            },
            close_restricted: { fd, _ in _ = close(fd) }))
        guard let context = libinput_udev_create_context(interface, nil, udev) else {
            udev_unref(udev)
            interface.deallocate()
            throw DisplayError("input: libinput cannot start")
        }
        guard libinput_udev_assign_seat(context, seat) == 0 else {
            libinput_unref(context)
            udev_unref(udev)
            interface.deallocate()
            throw DisplayError("input: cannot use the seat \(seat)")
        }
        self.udev = udev
        self.context = context
        descriptor = libinput_get_fd(context)
    }

    deinit {
        dials.forEach { libinput_device_unref($0.device) }
        libinput_unref(context)
        udev_unref(udev)
        interface.deallocate()
    }

    /// Reads what libinput has and hands each event to `handle` with its kernel time
    /// (monotonic seconds, the clock V4L2 stamps frames with), touch positions mapped onto a
    /// `width` × `height` picture drawn turned by `rotation` onto the panel.
    public func dispatch(width: Int, height: Int, rotation: PanelRotation, _ handle: (InputEvent, Double) -> Void) {
        _ = libinput_dispatch(context)
        while let event = libinput_get_event(context) {
            defer { libinput_event_destroy(event) }
            switch libinput_event_get_type(event) {
            case LIBINPUT_EVENT_DEVICE_ADDED:
                let device = libinput_event_get_device(event)!
                if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER) != 0 {
                    dials.append((libinput_device_ref(device), encoderIndex(device)))
                }
            case LIBINPUT_EVENT_DEVICE_REMOVED:
                let device = libinput_event_get_device(event)!
                if let index = dials.firstIndex(where: { $0.device == device }) {
                    libinput_device_unref(dials.remove(at: index).device)
                }
            case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
                let touch = libinput_event_get_touch_event(event)!
                let (panelWidth, panelHeight) = rotation.swapsAxes ? (height, width) : (width, height)
                let px = libinput_event_touch_get_x_transformed(touch, UInt32(panelWidth))
                let py = libinput_event_touch_get_y_transformed(touch, UInt32(panelHeight))
                let (x, y) = rotation.uprightPosition(panelX: px, panelY: py, width: width, height: height)
                let slot = Int(libinput_event_touch_get_seat_slot(touch))
                handle(libinput_event_get_type(event) == LIBINPUT_EVENT_TOUCH_DOWN
                       ? .touchDown(slot: slot, x: x, y: y) : .touchMotion(slot: slot, x: x, y: y),
                       InputSource.seconds(libinput_event_touch_get_time_usec(touch)))
            case LIBINPUT_EVENT_TOUCH_UP:
                let touch = libinput_event_get_touch_event(event)!
                handle(.touchUp(slot: Int(libinput_event_touch_get_seat_slot(touch))),
                       InputSource.seconds(libinput_event_touch_get_time_usec(touch)))
            case LIBINPUT_EVENT_TOUCH_CANCEL:
                let touch = libinput_event_get_touch_event(event)!
                handle(.touchCancel(slot: Int(libinput_event_touch_get_seat_slot(touch))),
                       InputSource.seconds(libinput_event_touch_get_time_usec(touch)))
            case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
                let pointer = libinput_event_get_pointer_event(event)!
                guard libinput_event_pointer_has_axis(pointer, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0 else { break }
                // libinput's wheel is "natural" screen scrolling: down is positive. A dial
                // turned clockwise sends REL_WHEEL +1, which libinput reports as −120.
                let v120 = -Int(libinput_event_pointer_get_scroll_value_v120(pointer, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL))
                let device = libinput_event_get_device(event)!
                handle(.wheel(wheel: dials.first { $0.device == device }?.index ?? -1, v120: v120),
                       InputSource.seconds(libinput_event_pointer_get_time_usec(pointer)))
            case LIBINPUT_EVENT_POINTER_BUTTON:
                // An encoder's push (its BTN_*), taken as a key: BoardControls says what it does.
                let pointer = libinput_event_get_pointer_event(event)!
                handle(.key(code: libinput_event_pointer_get_button(pointer),
                            pressed: libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED),
                       InputSource.seconds(libinput_event_pointer_get_time_usec(pointer)))
            case LIBINPUT_EVENT_KEYBOARD_KEY:
                let keyboard = libinput_event_get_keyboard_event(event)!
                handle(.key(code: libinput_event_keyboard_get_key(keyboard),
                            pressed: libinput_event_keyboard_get_key_state(keyboard) == LIBINPUT_KEY_STATE_PRESSED),
                       InputSource.seconds(libinput_event_keyboard_get_time_usec(keyboard)))
            default:
                break
            }
        }
    }

    private static func seconds(_ microseconds: UInt64) -> Double { Double(microseconds) / 1e6 }

    /// The encoder's number in `encoderNames`, by its REFLEX_DIAL property or its name; -1
    /// for neither.
    private func encoderIndex(_ device: OpaquePointer) -> Int {
        if let udevDevice = libinput_device_get_udev_device(device) {
            defer { udev_device_unref(udevDevice) }
            if let value = udev_device_get_property_value(udevDevice, "REFLEX_DIAL"),
               let index = encoderNames.firstIndex(of: String(cString: value)) { return index }
        }
        return encoderNames.firstIndex(of: String(cString: libinput_device_get_name(device))) ?? -1
    }
}
