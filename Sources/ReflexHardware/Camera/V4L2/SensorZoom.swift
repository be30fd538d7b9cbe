import CV4L2
import ReflexISP

/// The camera's own zoom (V4L2_CID_ZOOM_ABSOLUTE: a zoom lens, or a UVC camera's zoom),
/// where it has one and its scale is known: V4L2 leaves the unit to the driver, so the
/// control's value at 1× is the board's `zoom-unity`, or the control's minimum when that is
/// above 0 (UVC's objective focal length, where value ÷ minimum is the magnification).
/// What the camera cannot reach, the ISP's crop adds.
struct SensorZoom: Equatable {
    let control: CaptureDeviceInfo.Control
    /// The control's value at 1×.
    let unity: Int64

    init?(device: CaptureDeviceInfo, calibration: SensorCalibration) {
        guard let control = device.controls.first(where: { $0.id == REFLEX_V4L2_CID_ZOOM_ABSOLUTE }),
              control.maximum > control.minimum else { return nil }
        let unity = calibration.zoomUnity.map { Int64($0.rounded()) } ?? control.minimum
        guard unity > 0, unity >= control.minimum, unity < control.maximum else { return nil }
        self.control = control
        self.unity = unity
    }

    /// The factor at the control's far end.
    var maximumFactor: Double { Double(control.maximum) / Double(unity) }

    /// The control's value for a wanted magnification, and the magnification it gives: never
    /// more than wanted (the ISP makes up the rest), never less than 1×.
    func setting(for factor: Double) -> (value: Int64, factor: Double) {
        // (A hair over, so 2.3 × 100 = 229.99… is still 230.)
        let wanted = max(factor, 1) * Double(unity) + 1e-6
        let value = min(max(Int64(wanted.rounded(.down)), unity), control.maximum)
        return (value, Double(value) / Double(unity))
    }

    var summary: String {
        "zoom control \"\(control.name)\" \(control.minimum)…\(control.maximum), 1× at \(unity): "
            + "up to \((maximumFactor * 10).rounded() / 10)× on the camera, the rest by the ISP's crop"
    }
}
