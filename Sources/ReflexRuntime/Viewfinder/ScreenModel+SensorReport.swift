import ReflexCore
import ReflexUI

/// The sensor's report taken in: the camera's limits, whether it streams, the exposure read
/// out, the histogram, the lenses and the notice of a limit a new lens sets.
extension ScreenModel {
    /// The sensor's report: the camera's limits, whether it streams, the exposure read out,
    /// the histogram, the lenses. (Internal only for `take(_:sensorChanged:now:)`, in
    /// ScreenModel+Status.swift: the model's own step, no API.)
    internal mutating func take(_ report: SensorReport, now: Double, effects: inout Effects) {
        controller.burstAllowed = !report.stillsBySwitching
        takeLenses(report, now: now, effects: &effects)
        if let limits = report.limits, limits != controller.model.limits {
            // The dials' stops and the focus dial follow the camera; drawn again once. The
            // settings are fitted as the sensor thread fits them (the file keeps what was chosen).
            let chosen = controller.model.settings
            controller.adopt(limits: limits)
            noticeClamping(from: chosen, to: controller.model.settings, now: now)
            state.settings = controller.model.settings
            state.hasFocusDial = limits.hasFocusControl
            scales = DialScales(controller.model)
            effects.scalesChanged = true
        }
        state.screen = switch report.status {
        case .starting, .streaming: .live
        case .noCamera: .noCamera
        case .lost: .reconnecting
        }
        // The metered Kelvin is on screen only on Pro's WB dial while it is on Auto; elsewhere
        // its wobble must not cost a repaint.
        let kelvinShown = state.settings.mode == .pro && state.settings.whiteBalance == .auto
        state.readout = ExposureReadout(
            iso: controller.model.isoScale.nearest(to: ISOSpeed(report.iso)).value,
            shutter: controller.model.shutterScale.nearest(toSeconds: report.exposureSeconds),
            fNumberTenths: report.fNumber.map { Int(($0 * 10).rounded()) } ?? fNumberTenths,
            kelvin: kelvinShown ? (report.kelvin + 50) / 100 * 100 : state.readout.kelvin)
        if report.hasHistogram {
            for bin in 0..<histogram.count { histogram[bin] = report.histogram[bin] }
            effects.histogramChanged = true
        }
    }

    /// The lenses present and the one streaming: the buttons follow; a new lens is felt
    /// (a confirmation), and a focus set by hand on the lens before goes back to auto.
    private mutating func takeLenses(_ report: SensorReport, now: Double, effects: inout Effects) {
        guard !boardLenses.isEmpty else { return }
        let present = LensSet(boardLenses.filter { lens in
            report.lensesPresent & UInt8(1 << (LensDescription.Role.allCases.firstIndex(of: lens.role) ?? 0)) != 0
        })
        if present != controller.lenses {
            controller.setLenses(present, at: now)
            state.lenses = present
        }
        state.activeLens = present.lenses.firstIndex { $0.role == report.activeLens }
        guard report.activeLens != reportedLens else { return }
        defer { reportedLens = report.activeLens }
        guard reportedLens != nil, report.activeLens != nil else { return }
        effects.haptic = .confirm
        lensSwitchedAt = now
        if controller.focusAutomaticallyOnNewLens() {
            state.settings = controller.model.settings
            effects.settingsChanged = true
        }
    }

    /// A new camera's limits fit the manual ISO or shutter chosen (the lens switched to has
    /// a narrower range): said on screen, as the dial shows the value it could keep.
    private mutating func noticeClamping(from chosen: CameraSettings, to fitted: CameraSettings, now: Double) {
        // Only across a switch of lens (at start, the dials simply show what the camera allows).
        guard chosen.mode == .pro, let switched = lensSwitchedAt, now - switched < 2 else { return }
        var changes: [String] = []
        if chosen.iso != fitted.iso, case .manual(let from) = chosen.iso, case .manual(let to) = fitted.iso {
            changes.append("ISO \(from.value) → \(to.value)")
        }
        if chosen.shutter != fitted.shutter, case .manual(let from) = chosen.shutter, case .manual(let to) = fitted.shutter {
            changes.append("\(from) → \(to)")
        }
        guard !changes.isEmpty else { return }
        showNotice(changes.joined(separator: ", ") + " · this lens's limit", at: now)
    }
}
