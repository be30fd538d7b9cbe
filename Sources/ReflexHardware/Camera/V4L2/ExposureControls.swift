import CV4L2
import ReflexCore
import ReflexISP

/// The sensor's exposure and gain controls as Auto exposure sees them: which V4L2 controls
/// they are, their ranges in seconds and multipliers (through the board's calibration), and
/// the driver's own auto modes switched off so that Reflex decides.
struct ExposureControls {
    /// What one step of the exposure control is worth.
    enum ExposureUnit: Equatable {
        /// V4L2_CID_EXPOSURE_ABSOLUTE: 100 µs a step (UVC cameras and the like).
        case hundredMicroseconds
        /// V4L2_CID_EXPOSURE on a CSI sensor: lines, each `seconds` long; `source` says
        /// where that came from.
        case lines(seconds: Double, source: String)

        var seconds: Double {
            switch self {
            case .hundredMicroseconds: 0.0001
            case .lines(let seconds, _): seconds
            }
        }
    }

    let gain: CaptureDeviceInfo.Control?
    let gainMapping: GainMapping?
    let exposure: CaptureDeviceInfo.Control?
    let exposureUnit: ExposureUnit
    /// An exposure control in lines whose line time nobody gave: left alone.
    let exposureWithoutLineTime: CaptureDeviceInfo.Control?
    /// A CSI sensor's frame length, where exposure is in lines and the sensor has VBLANK.
    let frameLength: FrameLength?
    let autoGain: CaptureDeviceInfo.Control?
    let autoExposure: CaptureDeviceInfo.Control?

    /// A CSI sensor's exposure cannot be longer than its frame (less a few lines, the
    /// driver's margin): for a longer one the frame is lengthened with V4L2_CID_VBLANK, and
    /// the preview slows to match, as any camera's does at a long shutter.
    struct FrameLength: Equatable {
        let control: CaptureDeviceInfo.Control
        let modeHeight: Int64
        /// Lines of a frame the exposure cannot use.
        let margin: Int64
        /// VBLANK as the mode (and its frame rate) set it: where the frame goes back to.
        let base: Int64

        /// The VBLANK an exposure of `lines` needs: the mode's own, or more (on the control's
        /// steps, rounded up: one step short would clip the exposure).
        func blanking(forLines lines: Int64) -> Int64 {
            let needed = max(lines + margin - modeHeight, base)
            guard needed > base else { return base }
            // Steps count from the control's minimum, as V4L2 rounds them.
            let step = Int64(min(max(control.step, 1), 1 << 20))
            let stepped = control.minimum + (needed - control.minimum + step - 1) / step * step
            return min(stepped, control.maximum)
        }
        /// The longest exposure the longest frame allows, in lines.
        var longestLines: Int64 { min(modeHeight + control.maximum - margin, Int64(Int32.max)) }
        /// The longest exposure the mode's own frame allows, in lines.
        var modeLines: Int64 { modeHeight + base - margin }
    }
    /// V4L2_EXPOSURE_MANUAL, the value of the auto-exposure menu that hands exposure to us.
    static let manualExposureMode: Int32 = 1
    /// Without an exposure control the exposure is whatever the sensor does: a frame time.
    static let assumedExposure = 1.0 / 30
    /// `measuredLineTime`: the line time the driver's PIXEL_RATE and HBLANK give for the
    /// streaming mode (`measureLineTime`); the board's `line-time-us` wins over it.
    /// `frameLength`: the streaming mode's (`measureFrameLength`), for exposure in lines.
    init(device: CaptureDeviceInfo, calibration: SensorCalibration, measuredLineTime: Double? = nil,
         frameLength: FrameLength? = nil) {
        let controls = device.controls
        gain = calibration.gainControl.flatMap { name in controls.first { $0.name.lowercased() == name } }
            ?? controls.first { $0.id == REFLEX_V4L2_CID_ANALOGUE_GAIN }
            ?? controls.first { $0.id == REFLEX_V4L2_CID_GAIN }
        gainMapping = gain.map { control in
            // Uncalibrated, the driver's default value is taken as 1×.
            let law = calibration.gainLaw ?? .linear(unity: calibration.gainUnity ?? Double(max(control.defaultValue, 1)))
            return GainMapping(controlRange: control.minimum...control.maximum, law: law, baseISO: calibration.baseISO)
        }
        let inLines = controls.first { $0.id == REFLEX_V4L2_CID_EXPOSURE }
        if let absolute = controls.first(where: { $0.id == REFLEX_V4L2_CID_EXPOSURE_ABSOLUTE }) {
            (exposure, exposureUnit, exposureWithoutLineTime) = (absolute, .hundredMicroseconds, nil)
        } else if let inLines, let lineTime = calibration.lineTime ?? measuredLineTime {
            let source = calibration.lineTime != nil ? "the board's line-time-us" : "PIXEL_RATE and HBLANK"
            (exposure, exposureUnit, exposureWithoutLineTime) = (inLines, .lines(seconds: lineTime, source: source), nil)
        } else {
            (exposure, exposureUnit, exposureWithoutLineTime) = (nil, .hundredMicroseconds, inLines)
        }
        if case .lines = exposureUnit, exposure != nil { self.frameLength = frameLength } else { self.frameLength = nil }
        autoGain = controls.first { $0.id == REFLEX_V4L2_CID_AUTOGAIN }
        autoExposure = controls.first { $0.id == REFLEX_V4L2_CID_EXPOSURE_AUTO }
    }

    /// One line's time from a CSI sensor's timing controls: (width + HBLANK) / PIXEL_RATE.
    static func lineTime(pixelRate: Int64, horizontalBlanking: Int64, width: Int) -> Double? {
        guard pixelRate > 0, horizontalBlanking >= 0, width > 0 else { return nil }
        return Double(Int64(width) + horizontalBlanking) / Double(pixelRate)
    }

    /// The line time of the mode the camera streams (`width` wide), from its PIXEL_RATE and
    /// HBLANK controls; nil where it has not both.
    static func measureLineTime(_ camera: CameraDevice, device: CaptureDeviceInfo, width: Int) -> Double? {
        let has = { (id: UInt32) in device.controls.contains { $0.id == id } }
        guard has(REFLEX_V4L2_CID_PIXEL_RATE), has(REFLEX_V4L2_CID_HBLANK),
              let rate = try? camera.control64(REFLEX_V4L2_CID_PIXEL_RATE),
              let blanking = try? camera.control(REFLEX_V4L2_CID_HBLANK) else { return nil }
        return lineTime(pixelRate: rate, horizontalBlanking: Int64(blanking), width: width)
    }

    /// The frame length of the mode the camera streams (`height` lines), from its VBLANK and
    /// exposure controls as they are now: the margin is what the exposure's maximum leaves
    /// of the frame. Nil without both, or with a margin that makes no sense.
    static func measureFrameLength(_ camera: CameraDevice, device: CaptureDeviceInfo, height: Int) -> FrameLength? {
        guard let blanking = device.controls.first(where: { $0.id == REFLEX_V4L2_CID_VBLANK }), !blanking.readOnly,
              let exposure = device.controls.first(where: { $0.id == REFLEX_V4L2_CID_EXPOSURE }),
              let now = try? camera.control(REFLEX_V4L2_CID_VBLANK) else { return nil }
        let margin = Int64(height) + Int64(now) - exposure.maximum
        guard margin >= 0, margin < Int64(height), blanking.maximum >= Int64(now) else { return nil }
        // The mode's own blanking is the control's default (drivers set it with the mode);
        // the value now may be a long exposure's, left from before (controls outlive a stream).
        let base = (blanking.minimum...blanking.maximum).contains(blanking.defaultValue) ? blanking.defaultValue : Int64(now)
        // No room to lengthen the frame: nothing to do.
        guard blanking.maximum > base else { return nil }
        return FrameLength(control: blanking, modeHeight: Int64(height), margin: margin, base: base)
    }

    /// The longest value the exposure control may be given (with the frame lengthened).
    private func longestExposureValue(_ control: CaptureDeviceInfo.Control) -> Int64 {
        max(frameLength?.longestLines ?? control.maximum, control.maximum)
    }

    var limits: ExposureLimits {
        let unit = exposureUnit.seconds
        let exposureRange = exposure.map { max(Double($0.minimum), 1) * unit...Double(longestExposureValue($0)) * unit }
            ?? ExposureControls.assumedExposure...ExposureControls.assumedExposure
        var limits = ExposureLimits(exposure: exposureRange, analogGain: gainMapping?.gainRange ?? 1...1)
        // Auto keeps the mode's frame (and so its frame rate): only a shutter set by hand
        // lengthens it.
        if let frameLength { limits.previewExposureLimit = min(limits.previewExposureLimit, Double(frameLength.modeLines) * unit) }
        return limits
    }

    /// What the dials may offer on this camera: the ISO its gain reaches (the base ISO alone
    /// without a gain control) and the exposure its control allows.
    func sensorLimits(hasFocusControl: Bool, hasRawFormat: Bool) -> SensorLimits {
        let base = Int(model.baseISO)
        return SensorLimits(isoRange: gainMapping?.isoRange ?? base...base, exposureRange: limits.exposure,
                            hasFocusControl: hasFocusControl, hasRawFormat: hasRawFormat)
    }

    var summary: String {
        let gainText = gain.map { control in
            "gain control \"\(control.name)\" \(control.minimum)…\(control.maximum), "
                + "ISO \(gainMapping!.isoRange.lowerBound)…\(gainMapping!.isoRange.upperBound)"
        } ?? "no gain control (digital gain only)"
        let exposureText: String
        switch (exposure, exposureUnit) {
        case (let control?, .hundredMicroseconds):
            exposureText = "exposure control \(control.minimum)…\(control.maximum) × 100 µs"
        case (let control?, .lines(let seconds, let source)):
            exposureText = "exposure control \"\(control.name)\" \(control.minimum)…\(control.maximum) lines of "
                + "\(Double(Int(seconds * 1e8)) / 100) µs (from \(source))"
                + (frameLength.map { length in
                    ", up to \(length.longestLines) lines (\(Double(Int(Double(length.longestLines) * seconds * 1000)) / 1000) s) "
                        + "with the frame lengthened by VBLANK \(length.base)…\(length.control.maximum)"
                } ?? "")
        case (nil, _):
            exposureText = exposureWithoutLineTime.map { _ in
                "an exposure control in lines but no line time (no PIXEL_RATE and HBLANK, no line-time-us "
                    + "in sensor.conf): exposure is left to the sensor"
            } ?? "no exposure control (exposure is the frame time)"
        }
        return gainText + "; " + exposureText
    }

    /// Reads what the sensor is set to now, switching the driver's auto gain and auto
    /// exposure off first, so that Reflex decides.
    func current(_ camera: CameraDevice) throws(CameraError) -> ExposureSetting {
        if let autoGain { try camera.setControl(autoGain.id, to: 0) }
        if let autoExposure { try camera.setControl(autoExposure.id, to: ExposureControls.manualExposureMode) }
        let gainValue = try gain.map { control throws(CameraError) in Int64(try camera.control(control.id)) }
        let exposureValue = try exposure.map { control throws(CameraError) in Double(try camera.control(control.id)) }
        if let frameLength, let exposureValue {
            // The frame as long as this exposure needs, and no longer. (Not fatal: at worst
            // the frame stays longer than it needs.)
            let wanted = frameLength.blanking(forLines: Int64(exposureValue))
            if let now = try? camera.control(frameLength.control.id), Int64(now) != wanted {
                try? camera.setControl(frameLength.control.id, to: Int32(clamping: wanted))
            }
        }
        return ExposureSetting(
            exposure: exposureValue.map { $0 * exposureUnit.seconds } ?? ExposureControls.assumedExposure,
            analogGain: max(gainValue.flatMap { gainMapping?.gain(forControlValue: $0) } ?? 1, 1))
    }

    /// What a frame's embedded data says it had, in seconds and a multiplier: its lines at
    /// the line time the exposure control counts in, its gain code through the gain law the
    /// gain control maps with (the registers are what those controls write). Nil where the
    /// exposure is not in lines, or the code is not one the law maps.
    func setting(reported: EmbeddedExposure) -> ExposureSetting? {
        guard exposure != nil, case .lines(let lineSeconds, _) = exposureUnit else { return nil }
        let gain = gainMapping.map { $0.gain(forControlValue: Int64(reported.gainCode)) } ?? 1
        guard gain.isFinite, gain > 0, reported.lines >= 0 else { return nil }
        return ExposureSetting(exposure: Double(reported.lines) * lineSeconds, analogGain: max(gain, 1))
    }

    /// What the sensor can really do of `setting`: exposure and gain rounded to its controls'
    /// steps (the ISP's digital gain is continuous).
    func quantised(_ setting: ExposureSetting) -> ExposureSetting {
        var result = setting
        if let exposure {
            result.exposure = Double(exposureValue(setting.exposure, exposure)) * exposureUnit.seconds
        }
        if let gainMapping {
            result.analogGain = max(gainMapping.gain(forControlValue: gainMapping.controlValue(forGain: setting.analogGain)), 1)
        }
        return result
    }

    /// Sends `setting` to the sensor; returns what it was set to (see `quantised`).
    func apply(_ setting: ExposureSetting, to camera: CameraDevice) throws(CameraError) -> ExposureSetting {
        if let gain, let gainMapping {
            try camera.setControl(gain.id, to: Int32(gainMapping.controlValue(forGain: setting.analogGain)))
        }
        if let exposure {
            let value = exposureValue(setting.exposure, exposure)
            if let frameLength {
                // The frame grows before a longer exposure and shrinks after a shorter one:
                // the driver clamps the exposure to the frame it has.
                let blanking = frameLength.blanking(forLines: value)
                let current = Int64(try camera.control(frameLength.control.id))
                if blanking > current { try camera.setControl(frameLength.control.id, to: Int32(clamping: blanking)) }
                try camera.setControl(exposure.id, to: Int32(clamping: value))
                // Shrinking the frame after is not fatal: the exposure is set, and a frame
                // left longer only slows the preview until the next change.
                if blanking < current { try? camera.setControl(frameLength.control.id, to: Int32(clamping: blanking)) }
            } else {
                try camera.setControl(exposure.id, to: Int32(clamping: value))
            }
        }
        return quantised(setting)
    }

    private func exposureValue(_ seconds: Double, _ control: CaptureDeviceInfo.Control) -> Int64 {
        let units = (seconds / exposureUnit.seconds).rounded()
        return min(max(Int64(min(max(units, -1e15), 1e15)), max(control.minimum, 1)), longestExposureValue(control))
    }

    /// Exposure and gain in Auto exposure's terms.
    var model: SensorExposureModel { SensorExposureModel(limits: limits, gainMapping: gainMapping) }

    func describe(_ setting: ExposureSetting, iso: Int) -> String {
        let shutter = setting.exposure >= 1 ? "\(Int(setting.exposure.rounded()))\""
            : setting.exposure > 1e-6 ? "1/\(Int((1 / setting.exposure).rounded()))" : "0"
        let controlText = gain.flatMap { control in
            gainMapping.map { " (\(control.name.lowercased()) = \($0.controlValue(forGain: setting.analogGain)))" }
        } ?? ""
        return "exposure \(shutter) s, gain \(Int((setting.analogGain * 100).rounded()))/100×\(controlText), ISO \(iso)"
    }
}
