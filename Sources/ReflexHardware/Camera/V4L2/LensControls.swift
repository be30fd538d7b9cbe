import CV4L2
import ReflexCore

/// Focus and white balance on the camera's own controls, where it has them: a lens motor's
/// V4L2_CID_FOCUS_ABSOLUTE (with FOCUS_AUTO off for a manual position, on for Auto), and the
/// colour temperature of a camera that white-balances its own pictures (a UVC webcam's
/// WHITE_BALANCE_TEMPERATURE with AUTO_WHITE_BALANCE). A raw sensor's white balance is the
/// ISP's, never the driver's.
struct LensControls {
    let focus: CaptureDeviceInfo.Control?
    let focusAuto: CaptureDeviceInfo.Control?
    let temperature: CaptureDeviceInfo.Control?
    let autoWhiteBalance: CaptureDeviceInfo.Control?

    init(device: CaptureDeviceInfo, picturesAreRaw: Bool) {
        func control(_ id: UInt32) -> CaptureDeviceInfo.Control? { device.controls.first { $0.id == id } }
        focus = control(REFLEX_V4L2_CID_FOCUS_ABSOLUTE)
        focusAuto = control(REFLEX_V4L2_CID_FOCUS_AUTO)
        temperature = picturesAreRaw ? nil : control(REFLEX_V4L2_CID_WHITE_BALANCE_TEMPERATURE)
        autoWhiteBalance = picturesAreRaw ? nil : control(REFLEX_V4L2_CID_AUTO_WHITE_BALANCE)
    }

    /// The focus control's value for a lens position. V4L2 defines larger values as closer
    /// to the camera, so 0 (macro) is the control's maximum and 1 (infinity) its minimum.
    static func focusValue(_ position: FocusPosition, range: ClosedRange<Int64>) -> Int64 {
        let span = Double(range.upperBound - range.lowerBound)
        return range.upperBound - Int64((position.value * span).rounded())
    }

    /// The inverse: the lens position a control value stands for.
    static func focusPosition(_ value: Int64, range: ClosedRange<Int64>) -> FocusPosition {
        let span = Double(max(range.upperBound - range.lowerBound, 1))
        return FocusPosition(Double(range.upperBound - min(max(value, range.lowerBound), range.upperBound)) / span)
    }

    /// Sets what `settings` ask of the lens and the camera's white balance; returns a line
    /// for the log saying what was set, or nil when the camera has none of these controls.
    func apply(_ settings: CameraSettings, to camera: CameraDevice) throws(CameraError) -> String? {
        var done: [String] = []
        let manualFocus = settings.mode == .pro ? settings.focus.manualValue : nil
        if let focusAuto {
            try camera.setControl(focusAuto.id, to: manualFocus == nil ? 1 : 0)
            done.append("autofocus \(manualFocus == nil ? "on" : "off")")
        }
        if let focus, let manualFocus {
            let value = LensControls.focusValue(manualFocus, range: focus.minimum...focus.maximum)
            try camera.setControl(focus.id, to: Int32(clamping: value))
            done.append("focus \(manualFocus) → \(focus.name.lowercased()) = \(value)")
        }
        let kelvin = settings.mode == .pro ? settings.whiteBalance.kelvin : nil
        if let autoWhiteBalance {
            try camera.setControl(autoWhiteBalance.id, to: kelvin == nil ? 1 : 0)
            done.append("camera white balance \(kelvin == nil ? "auto" : "manual")")
        }
        if let temperature, let kelvin {
            let value = min(max(Int64(kelvin), temperature.minimum), temperature.maximum)
            try camera.setControl(temperature.id, to: Int32(clamping: value))
            done.append("\(temperature.name.lowercased()) = \(value)")
        }
        return done.isEmpty ? nil : done.joined(separator: ", ")
    }

    /// The lens to `position` for Reflex's own autofocus: the camera's own autofocus off
    /// first, so it does not move the lens back.
    func move(to position: FocusPosition, on camera: CameraDevice) throws(CameraError) {
        guard let focus else { return }
        if let focusAuto { try camera.setControl(focusAuto.id, to: 0) }
        try camera.setControl(focus.id, to: Int32(clamping: LensControls.focusValue(position, range: focus.minimum...focus.maximum)))
    }

    /// The shutter's half press: an autofocusing lens stops where it is (FOCUS_AUTO off
    /// keeps the position autofocus found) until it is let go. Nothing for a manual focus, a
    /// camera without autofocus, or a lens Reflex's own autofocus put on a tapped spot (held
    /// there already); returns whether the lens was held or freed.
    func holdAutofocus(_ hold: Bool, _ settings: CameraSettings, on camera: CameraDevice) throws(CameraError) -> Bool {
        guard let focusAuto, settings.mode != .pro || settings.focus == .auto else { return false }
        guard settings.mode != .auto || settings.meteringPoint == nil || focus == nil else { return false }
        try camera.setControl(focusAuto.id, to: hold ? 0 : 1)
        return true
    }
}
