import ReflexCore
import ReflexHardware
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The USB cable as the quick menu switches it, on a thread of its own (`reflex-usb-control`,
/// background): Files or Tethered asks the root service (`reflex usb`, started by
/// reflex-usb.path when `wanted` appears; its answer in `state`) for the gadget, writes the
/// still-image interface into its FunctionFS folder and binds it to the board's controller;
/// then follows ep0: a computer that configures the camera starts PTP on the endpoints
/// (`PTPTransport`), one that goes away ends it. Off unbinds (every transfer under way ends
/// at once), closes the function and takes the request back, and the service takes the
/// gadget apart. This process never holds the right to make a gadget.
public final class USBKeeper: @unchecked Sendable {
    public let usbSwitch: USBSwitch
    private let camera: PTPCamera
    private let gadget: USBGadget
    private let status: StatusBoard?
    private let wanted: String
    private let state: String
    private let functionFolder: String
    private let log: @Sendable (String) -> Void
    private let thread = WorkerThread(name: "reflex-usb-control", priority: .background)

    // The thread's own.
    private var askedAt: Double?
    private var function: FunctionFSFunction?
    private var bound = false
    /// The device controller the service made the gadget for.
    private var gadgetController = ""
    private var servedMode = USBMode.off
    private var transport: PTPTransport?
    private var pipes: PTPPipes?
    /// Why the gadget could not be had (tried again only after Off).
    private var failure: String?

    /// How long the root service may take to make the gadget (a slow board under emulation).
    static let servicePatience = 60.0

    /// `status`: where the screen learns whether a computer is connected.
    public init(usbSwitch: USBSwitch, camera: PTPCamera, wanted: String, state: String, functionFolder: String,
                gadget: USBGadget = USBGadget(), status: StatusBoard?, log: @escaping @Sendable (String) -> Void) {
        (self.usbSwitch, self.camera, self.gadget, self.status, self.log) = (usbSwitch, camera, gadget, status, log)
        (self.wanted, self.state, self.functionFolder) = (wanted, state, functionFolder)
    }

    public func start() -> Bool { thread.start { self.run() } }

    /// Unbinds and closes the gadget (at most a second for the thread to notice).
    public func stop() {
        usbSwitch.signal.signal()
        thread.stop()
    }

    private func run() {
        while !thread.isStopping {
            follow()
            var ready = [pollfd(fd: usbSwitch.signal.descriptor, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: thread.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: function?.control ?? -1, events: Int16(POLLIN), revents: 0)]
            guard poll(&ready, 3, 1000) >= 0 || errno == EINTR else { break }
            if ready[0].revents != 0 { usbSwitch.signal.drain() }
            if ready[1].revents != 0 { thread.drainWake() }
            if ready[2].revents & Int16(POLLIN) != 0 { takeEvents() }
        }
        turnOff()
    }

    /// One look at the switch: ask for the gadget, set it up once it is made, or take it down.
    private func follow() {
        let mode = usbSwitch.mode
        guard mode != .off else {
            if failure != nil { status?.postUSB(.off) }
            failure = nil
            if askedAt != nil || function != nil { turnOff() }
            return
        }
        guard failure == nil else { return }
        if bound && mode != servedMode {
            // A computer learns what the camera offers when it connects: it connects again.
            log("usb: now \(mode.label); the computer sees the camera again")
            gadget.unbind()
            endTransport()
            bind()
        }
        if askedAt == nil { ask() }
        guard function == nil else { return }
        switch SmallFile.text(state).flatMap(RootServiceState.init(line:)) {
        case .up(let controller)?: setUp(controller: controller)
        case .failed(let why)?: fail(why)
        case .starting?, nil:
            if let asked = askedAt, monotonicSeconds() - asked > Self.servicePatience {
                fail("USB: the gadget's service did not answer (reflex-usb.path)")
            }
        }
    }

    private func ask() {
        if let why = RequestFile(wanted).make() {
            fail("USB: cannot ask for the gadget (\(wanted): \(why))")
            return
        }
        askedAt = monotonicSeconds()
        log("usb: asked for the gadget (\(wanted))")
    }

    private func setUp(controller: String) {
        do {
            function = try FunctionFSFunction(folder: functionFolder)
        } catch {
            fail("USB: the camera's interface could not be set up (\(error))")
            return
        }
        gadgetController = controller
        bind()
    }

    private func bind() {
        do {
            try gadget.bind(to: gadgetController)
            (bound, servedMode) = (true, usbSwitch.mode)
            status?.postUSB(.waiting)
            log("usb: \(servedMode.label) on \(gadgetController); a computer on the cable sees the camera")
        } catch {
            fail("USB: the gadget could not be bound to \(gadgetController) (\(error))")
        }
    }

    /// ep0's events: a computer configured the camera or went away, a class request.
    private func takeEvents() {
        guard let function, let events = function.readEvents() else { return }
        for event in events {
            switch event {
            case .enable: beginTransport()
            case .disable, .unbind: endTransport()
            case .setup(let setup): answer(setup, function)
            case .bind, .suspend, .resume: break
            }
        }
    }

    private func answer(_ setup: [UInt8], _ function: FunctionFSFunction) {
        switch StillImageRequest(setup: setup) {
        case .cancel:
            function.accept(setup)
            log("usb: the computer cancelled a transfer")
        case .deviceReset:
            function.accept(setup)
            transport?.hostLeft()
            log("usb: the computer reset the camera; its session ended")
        case .getDeviceStatus:
            function.send(StillImageRequest.deviceStatus(busy: false), answering: setup)
        case .unsupported:
            function.stall(setup)
        }
    }

    private func beginTransport() {
        guard transport == nil, let function else { return }
        do {
            let opened = try function.openPipes()
            let started = PTPTransport(pipes: opened, camera: camera, changed: status?.photosChanged ?? EventSignal(), log: log)
            guard started.start() else {
                FunctionFSFunction.close(opened)
                log("usb: cannot start PTP's threads; the computer gets no answer")
                return
            }
            (pipes, transport) = (opened, started)
            status?.postUSB(.connected)
            log("usb: a computer connected (\(servedMode.label))")
        } catch {
            log("usb: a computer connected, but the endpoints could not be opened (\(error))")
        }
    }

    /// After the function was disabled or unbound: every transfer under way has failed, so
    /// PTP's threads end.
    private func endTransport() {
        guard let transport else { return }
        transport.hostLeft()
        transport.stop()
        if let pipes { FunctionFSFunction.close(pipes) }
        (self.transport, pipes) = (nil, nil)
        status?.postUSB(bound ? .waiting : .off)
        log("usb: the computer went away")
    }

    private func fail(_ reason: String) {
        log("\(reason); USB off until chosen again")
        failure = reason
        turnOff()
        status?.postUSB(.unavailable)
    }

    private func turnOff() {
        if bound {
            gadget.unbind()
            bound = false
            log("usb: unbound; the computer sees the camera unplugged")
        }
        endTransport()
        function = nil
        status?.postUSB(.off)
        if askedAt != nil {
            RequestFile(wanted).withdraw()
            askedAt = nil
            log("usb: the gadget no longer asked for")
        }
    }
}
