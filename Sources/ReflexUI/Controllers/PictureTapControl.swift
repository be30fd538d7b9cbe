import ReflexCore

/// A tap on the picture. In Auto, exposure meters on that spot (a box shows it); a double tap
/// meters the whole frame again. With auto-zoom on, in Auto and Pro alike, the person there
/// becomes its subject; a double tap gives the choice back to the camera.
struct PictureTapControl: Sendable {
    private var lastTap = -Double.infinity

    /// A tap at (`x`, `y`) on the panel at `now`; `zoom` is the picture's magnification.
    mutating func tap(x: Double, y: Double, at now: Double, model: inout CameraModel, autoZoomOn: Bool, viewfinder: PixelRect,
                      zoom: Double, into outcome: inout InterfaceController.Outcome) {
        // (In Pro without auto-zoom a tap on the picture does nothing, and starts no double tap.)
        guard autoZoomOn || model.settings.mode == .auto else { return }
        let double = now - lastTap <= InterfaceController.doubleTapInterval
        lastTap = double ? -.infinity : now
        if autoZoomOn {
            // (A tap on no one: nowhere in the picture.)
            outcome.subjectTap = double ? (-1, -1) : ((x - Double(viewfinder.x)) / Double(viewfinder.width),
                                                      (y - Double(viewfinder.y)) / Double(viewfinder.height))
            outcome.ticks += 1
            return
        }
        if double {
            outcome.settingsChanged = model.setMeteringPoint(nil)
            outcome.confirmed = outcome.settingsChanged
            return
        }
        guard let point = MeteringPoint.under(touchX: x, touchY: y, viewfinder: viewfinder, zoom: zoom) else { return }
        outcome.settingsChanged = model.setMeteringPoint(point)
        if outcome.settingsChanged { outcome.ticks += 1 }
    }
}
