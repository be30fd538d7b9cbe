import ReflexCore

/// `reflex bench frame`'s inputs where the machine has no /dev/uinput: every `every` frames
/// an event stamped with its own time, at a phase of the vblank that moves by 1.3 ms each time
/// (so the waits cover a whole frame): a dial's detent in Pro (alternately up and down, so
/// it never stops at a bound), a tap on the picture in Auto (alternately left and right, so
/// the metering spot moves).
struct InputInjection {
    let every: Int
    let pro: Bool
    let viewfinder: PixelRect
    private(set) var injected = 0
    private var nextFlip = 0
    private var pending: [(event: InputEvent, time: Double)] = []
    private var dueAt: Double?

    init(every: Int, pro: Bool, viewfinder: PixelRect) {
        (self.every, self.pro, self.viewfinder) = (every, pro, viewfinder)
    }

    /// Seconds until the next event is due (a millisecond when none is planned yet: it is
    /// planned after the next flip).
    func secondsUntilDue(now: Double) -> Double {
        guard every > 0 else { return 1 }
        if !pending.isEmpty { return 0 }
        return dueAt.map { max(0, $0 - now) } ?? 0.001
    }

    /// The next event due by `now`, if any.
    mutating func due(flips: Int, now: Double) -> (event: InputEvent, time: Double)? {
        guard every > 0 else { return nil }
        if dueAt == nil, pending.isEmpty, flips >= nextFlip {
            nextFlip = flips + every
            dueAt = now + Double(injected % 13) * 0.0013
        }
        if let at = dueAt, now >= at {
            dueAt = nil
            injected += 1
            // Stamped when due, as the kernel stamps an event when it happens: one due while
            // the loop's thread was busy (drawing a picture) waits, as it would on the camera.
            if pro {
                pending = [(.wheel(wheel: 0, v120: injected % 2 == 0 ? 120 : -120), at)]
            } else {
                let x = Double(viewfinder.x) + Double(viewfinder.width) * (injected % 2 == 0 ? 0.3 : 0.7)
                let y = Double(viewfinder.y + viewfinder.height / 2)
                // Down then up: the tap takes effect as the finger lifts.
                pending = [(.touchDown(slot: 0, x: x, y: y), at), (.touchUp(slot: 0), at)]
            }
        }
        return pending.isEmpty ? nil : pending.removeFirst()
    }
}
