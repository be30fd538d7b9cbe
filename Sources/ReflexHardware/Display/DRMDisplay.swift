import ReflexCore
import CDRM
import ReflexISP
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A DRM/KMS panel driven directly: the connected connector's preferred mode on a CRTC, two
/// dumb buffers scanned out in turn, each flip completed by a page-flip event (one flip per
/// vblank at most). The previous mode comes back and DRM master is dropped when it closes.
///
/// Atomic mode setting where the driver has it: the picture on the primary plane and, where
/// the CRTC has an overlay plane taking ARGB8888 (vkms does), the interface on it, so the
/// hardware composites the two. The legacy path (SetCrtc + PageFlip) where it has not.
public final class DRMDisplay: DisplayOutput, @unchecked Sendable {
    public let path: String
    /// The card, kept open (and DRM master) while the display lives.
    private let card: FileDescriptor
    public var descriptor: Int32 { card.rawValue }
    public let driver: String
    public let connectorName: String
    /// The picture's size as the camera draws it: the mode's, turned by the board's rotation.
    public let width: Int
    public let height: Int
    /// The mode's own size (what the panel scans out).
    public let modeWidth: Int
    public let modeHeight: Int
    public let rotation: PanelRotation
    public let density: PanelDensity?
    public let densityOrigin: String
    /// Pixels per row of the scanout buffers (their pitch in 32-bit pixels).
    public let stride: Int
    /// With a rotation, frames are drawn upright here and turned into the scanout buffer.
    private var uprightPicture: UnsafeMutablePointer<UInt32>?
    private var uprightOverlay: UnsafeMutablePointer<UInt32>?
    private let crtcID: UInt32
    private var connectorID: UInt32
    private var mode: drmModeModeInfo
    private let savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    private typealias Buffer = (handle: UInt32, framebuffer: UInt32, pixels: UnsafeMutablePointer<UInt32>, size: Int)
    private var buffers: [Buffer] = []
    /// The interface's plane, double-buffered like the picture's (atomic with an overlay only).
    private var overlayBuffers: [Buffer] = []
    private var overlayBack = 0
    private var atomic: DRMAtomicOutput?
    private var back = 0
    /// Prepared, queued, flipped: where the frame is between two flips.
    private var cycle = FlipCycle()
    public var flipPending: Bool { cycle.flipPending }
    public private(set) var flips = 0
    /// The vblank counter at the first completed flip and at the last.
    private var firstFlipSequence: UInt32?
    private var lastFlipSequence: UInt32?
    /// The vblank counter when the pending flip was queued (nil: the driver has none).
    private var queuedSequence: UInt32?
    private var missed = 0
    private var hasVblankCounter = false

    /// Opens the first card with a connected connector (or the board's card and connector),
    /// and sets its preferred mode (or the board's).
    public init(_ configuration: PanelConfiguration = PanelConfiguration(), driFolder: String = "/dev/dri") throws(DisplayError) {
        let candidates = configuration.card.map { [$0] } ?? deviceNodes(in: driFolder, prefix: "card")
        var chosen: (String, DisplayCardInfo.Connector, UInt32, drmModeModeInfo, UInt32, Int)?
        var reasons: [String] = []
        for path in candidates {
            // Each card is looked at through a descriptor of its own, closed at once; the one
            // chosen is opened again below and kept.
            do throws(SystemError) {
                let probe = try FileDescriptor(opening: path, O_RDWR)
                if let found = DRMDisplay.pickOutput(probe.rawValue, configuration) {
                    chosen = (path, found.connector, found.connectorID, found.mode, found.crtcID, found.crtcIndex)
                    break
                }
                reasons.append("\(path): no connected connector" + (configuration.connector.map { " named \($0)" } ?? "")
                               + " with " + (configuration.modeWidth.map { "the mode \($0)x\(configuration.modeHeight!)" } ?? "a mode"))
            } catch {
                reasons.append("\(path): \(error.reason)")
            }
        }
        guard let (path, connector, connectorID, mode, crtcID, crtcIndex) = chosen else {
            throw DisplayError("no display found" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"))
        }
        self.path = path
        do throws(SystemError) {
            card = try FileDescriptor(opening: path, O_RDWR)
        } catch {
            throw DisplayError("\(path): \(error.reason)")
        }
        let fd = card.rawValue
        var driverName = "unknown"
        if let version = drmGetVersion(fd) {
            driverName = String(cString: version.pointee.name)
            drmFreeVersion(version)
        }
        driver = driverName
        connectorName = connector.name
        self.connectorID = connectorID
        self.mode = mode
        self.crtcID = crtcID
        modeWidth = Int(mode.hdisplay)
        modeHeight = Int(mode.vdisplay)
        rotation = configuration.rotation
        (density, densityOrigin) = DRMDisplay.density(configuration, connector: connector, modeWidth: modeWidth, modeHeight: modeHeight)
        (width, height) = rotation.swapsAxes ? (modeHeight, modeWidth) : (modeWidth, modeHeight)
        savedCRTC = drmModeGetCrtc(fd, crtcID)
        _ = drmSetMaster(fd)  // the first opener is master already; this covers a VT switch back
        var pitch = 0
        for _ in 0..<2 {
            let buffer = try DRMDisplay.makeBuffer(fd, width: modeWidth, height: modeHeight, format: REFLEX_DRM_FORMAT_XRGB8888)
            pitch = buffer.pitch
            buffers.append((buffer.handle, buffer.framebuffer, buffer.pixels, buffer.size))
        }
        stride = pitch / 4
        buffers[0].pixels.update(repeating: 0xFF00_0000, count: stride * modeHeight)
        if rotation != .none {
            uprightPicture = .allocate(capacity: width * height)
        }
        atomic = DRMAtomicOutput(fd: fd, crtcID: crtcID, crtcIndex: crtcIndex, connectorID: connectorID)
        if let atomic {
            if atomic.hasOverlay {
                for _ in 0..<2 {
                    let buffer = try DRMDisplay.makeBuffer(fd, width: modeWidth, height: modeHeight, format: REFLEX_DRM_FORMAT_ARGB8888)
                    buffer.pixels.update(repeating: 0, count: buffer.pitch / 4 * modeHeight)
                    overlayBuffers.append((buffer.handle, buffer.framebuffer, buffer.pixels, buffer.size))
                }
            }
            if atomic.hasOverlay && rotation != .none { uprightOverlay = .allocate(capacity: width * height) }
            if atomic.setMode(mode, primary: buffers[0].framebuffer, overlay: overlayBuffers.first?.framebuffer,
                              width: modeWidth, height: modeHeight) {
                back = 1
                overlayBack = 1
                return
            }
            // A driver that advertises atomic but refuses this commit still has the legacy path.
            releaseBuffers(overlayBuffers)
            overlayBuffers.removeAll()
            self.atomic = nil
        }
        var connectorList = connectorID
        guard drmModeSetCrtc(fd, crtcID, buffers[0].framebuffer, 0, 0, &connectorList, 1, &self.mode) == 0 else {
            let reason = errnoDescription()
            releaseBuffers(buffers)
            throw DisplayError("\(path): cannot set the mode \(modeWidth)x\(modeHeight) (\(reason))")
        }
        back = 1
    }

    deinit {
        atomic?.disableOverlay()
        atomic = nil
        if let savedCRTC {
            var connectorList = connectorID
            var saved = savedCRTC.pointee
            _ = drmModeSetCrtc(descriptor, saved.crtc_id, saved.buffer_id, saved.x, saved.y, &connectorList, 1, &saved.mode)
            drmModeFreeCrtc(savedCRTC)
        }
        releaseBuffers(buffers)
        releaseBuffers(overlayBuffers)
        uprightPicture?.deallocate()
        uprightOverlay?.deallocate()
        _ = drmDropMaster(descriptor)
        // (The card's descriptor closes as the display goes.)
    }

    /// The picture into the back buffer (upright, where the panel is turned); `queue` lays
    /// the rest over it, turns it onto the panel and flips to it at the next vblank.
    @discardableResult
    public func prepare(_ draw: (UnsafeMutablePointer<UInt32>, Int) throws(DisplayError) -> Void) throws(DisplayError) -> Bool {
        try cycle.prepare { () throws(DisplayError) in
            if let uprightPicture { try draw(uprightPicture, width) } else { try draw(buffers[back].pixels, stride) }
        }
    }

    @discardableResult
    public func queue(_ finish: (UnsafeMutablePointer<UInt32>, Int) -> Void,
                      updatingOverlay: Bool, overlay: (UnsafeMutablePointer<UInt32>, Int) -> Void) throws(DisplayError) -> Bool {
        guard cycle.takePrepared() else { return false }
        let buffer = buffers[back]
        if let uprightPicture {
            finish(uprightPicture, width)
            rotation.copy(uprightPicture, width: width, height: height, sourceStride: width, into: buffer.pixels, panelStride: stride)
        } else {
            finish(buffer.pixels, stride)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let atomic {
            var overlayFramebuffer: UInt32?
            if updatingOverlay && !overlayBuffers.isEmpty {
                if let uprightOverlay {
                    overlay(uprightOverlay, width)
                    rotation.copy(uprightOverlay, width: width, height: height, sourceStride: width,
                                  into: overlayBuffers[overlayBack].pixels, panelStride: stride)
                } else {
                    overlay(overlayBuffers[overlayBack].pixels, stride)
                }
                overlayFramebuffer = overlayBuffers[overlayBack].framebuffer
                overlayBack = 1 - overlayBack
            }
            guard atomic.flip(primary: buffer.framebuffer, overlay: overlayFramebuffer, userData: context) else {
                throw DisplayError("\(path): atomic commit refused (\(errnoDescription()))")
            }
        } else {
            guard drmModePageFlip(descriptor, crtcID, buffer.framebuffer, REFLEX_DRM_MODE_PAGE_FLIP_EVENT, context) == 0 else {
                throw DisplayError("\(path): page flip refused (\(errnoDescription()))")
            }
        }
        queuedSequence = currentVblank()
        cycle.flipQueued()
        back = 1 - back
        return true
    }

    public var summary: String {
        let turned = rotation == .none ? "" : " turned \(rotation.rawValue)°"
        var kms = " (legacy KMS)"
        if let atomic {
            kms = " (atomic" + (atomic.planes.overlay.map { ", the interface on overlay plane \($0)" } ?? "") + ")"
        }
        return "\(path) \(driver) \(connectorName) \(modeWidth)x\(modeHeight)" + turned + kms
    }

    public var hasOverlay: Bool { !overlayBuffers.isEmpty }

    public var vblanksSpanned: Int? {
        guard hasVblankCounter, let firstFlipSequence, let lastFlipSequence else { return nil }
        return Int(lastFlipSequence &- firstFlipSequence)
    }

    public var missedVblanks: Int? { hasVblankCounter ? missed : nil }
    /// From the mode's timings (pixel clock over the whole frame's pixels), where the CRTC
    /// counts vblanks.
    public var vblankInterval: Double? {
        guard hasVblankCounter, mode.clock > 0, mode.htotal > 0, mode.vtotal > 0 else { return nil }
        return Double(mode.htotal) * Double(mode.vtotal) / (Double(mode.clock) * 1000)
    }

    /// Reads the card's events (poll `descriptor` first): a completed flip frees the next
    /// frame. Returns true when it did.
    public func handleEvents() -> Bool {
        let before = flips
        var context = drmEventContext()
        context.version = Int32(REFLEX_DRM_EVENT_CONTEXT_VERSION)
        context.page_flip_handler = { _, sequence, _, _, userData in
            guard let userData else { return }
            Unmanaged<DRMDisplay>.fromOpaque(userData).takeUnretainedValue().flipCompleted(at: sequence)
        }
        _ = drmHandleEvent(descriptor, &context)
        return flips > before
    }

    private func flipCompleted(at sequence: UInt32) {
        cycle.flipEnded()
        flips += 1
        if let queuedSequence {
            // Due at the vblank after the one it was queued in; each one later is a miss.
            missed += max(0, Int(Int32(bitPattern: sequence &- queuedSequence)) - 1)
            if firstFlipSequence == nil { firstFlipSequence = sequence }
            lastFlipSequence = sequence
        }
        queuedSequence = nil
    }

    public func abandonFlip() {
        cycle.flipEnded()
        queuedSequence = nil
    }

    /// The CRTC's vblank counter now, where the driver keeps one (vkms and real panels do;
    /// virtio-gpu does not).
    private func currentVblank() -> UInt32? {
        var sequence: UInt64 = 0
        var nanoseconds: UInt64 = 0
        guard drmCrtcGetSequence(descriptor, crtcID, &sequence, &nanoseconds) == 0 else { return nil }
        hasVblankCounter = true
        return UInt32(truncatingIfNeeded: sequence)
    }

    private func releaseBuffers(_ buffers: [Buffer]) {
        for buffer in buffers {
            munmap(buffer.pixels, buffer.size)
            _ = drmModeRmFB(descriptor, buffer.framebuffer)
            var destroy = drm_mode_destroy_dumb(handle: buffer.handle)
            _ = drmIoctl(descriptor, REFLEX_DRM_IOCTL_MODE_DESTROY_DUMB, &destroy)
        }
    }

    private static func makeBuffer(_ fd: Int32, width: Int, height: Int, format: UInt32) throws(DisplayError)
        -> (handle: UInt32, framebuffer: UInt32, pixels: UnsafeMutablePointer<UInt32>, size: Int, pitch: Int) {
        var create = drm_mode_create_dumb()
        create.width = UInt32(width)
        create.height = UInt32(height)
        create.bpp = 32
        guard drmIoctl(fd, REFLEX_DRM_IOCTL_MODE_CREATE_DUMB, &create) == 0 else {
            throw DisplayError("cannot create a \(width)x\(height) buffer (\(errnoDescription()))")
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (create.handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (create.pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var framebuffer: UInt32 = 0
        let added = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), format,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &framebuffer, 0)
                }
            }
        }
        guard added == 0 else { throw DisplayError("cannot add a framebuffer (\(errnoDescription()))") }
        var map = drm_mode_map_dumb()
        map.handle = create.handle
        guard drmIoctl(fd, REFLEX_DRM_IOCTL_MODE_MAP_DUMB, &map) == 0,
              let pixels = mmap(nil, Int(create.size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(map.offset)),
              pixels != MAP_FAILED else {
            throw DisplayError("cannot map a buffer (\(errnoDescription()))")
        }
        return (create.handle, framebuffer, pixels.assumingMemoryBound(to: UInt32.self), Int(create.size), Int(create.pitch))
    }

    /// The board's density, else the one the panel's reported size gives.
    private static func density(_ configuration: PanelConfiguration, connector: DisplayCardInfo.Connector,
                                modeWidth: Int, modeHeight: Int) -> (PanelDensity?, String) {
        let size = "\(connector.widthMillimetres)x\(connector.heightMillimetres) mm"
        if let board = configuration.density { return (board, "the board's display.conf (the panel says \(size))") }
        if let measured = PanelDensity.measured(widthPixels: modeWidth, heightPixels: modeHeight,
                                                widthMillimetres: connector.widthMillimetres,
                                                heightMillimetres: connector.heightMillimetres) {
            return (measured, "the panel's \(size)")
        }
        let why = connector.widthMillimetres > 0 ? "a size that is not a measure (\(size))" : "no size"
        return (nil, "unknown: the panel reports \(why); set dpi in the board's display.conf")
    }

    /// The connected connector with the most pixels in its preferred mode, and a CRTC for it.
    private static func pickOutput(_ fd: Int32, _ configuration: PanelConfiguration) -> (connector: DisplayCardInfo.Connector, connectorID: UInt32,
                                                    mode: drmModeModeInfo, crtcID: UInt32, crtcIndex: Int)? {
        guard let resources = drmModeGetResources(fd) else { return nil }
        defer { drmModeFreeResources(resources) }
        for index in 0..<Int(resources.pointee.count_connectors) {
            guard let connector = drmModeGetConnector(fd, resources.pointee.connectors[index]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else { continue }
            let name = "\(String(cString: reflex_drm_connector_type_name(c.connector_type)))-\(c.connector_type_id)"
            if let wanted = configuration.connector, wanted != name { continue }
            let modes = (0..<Int(c.count_modes)).map { c.modes[$0] }
            let chosenMode: drmModeModeInfo?
            if let w = configuration.modeWidth, let h = configuration.modeHeight {
                // The board's mode, the preferred one among several of that size.
                let sized = modes.filter { Int($0.hdisplay) == w && Int($0.vdisplay) == h }
                chosenMode = sized.first { $0.type & REFLEX_DRM_MODE_TYPE_PREFERRED != 0 } ?? sized.first
            } else {
                chosenMode = modes.first { $0.type & REFLEX_DRM_MODE_TYPE_PREFERRED != 0 } ?? modes[0]
            }
            guard let mode = chosenMode else { continue }
            // The CRTC the connector's encoder drives now, else the first one an encoder can use.
            var crtc: UInt32 = 0
            if c.encoder_id != 0, let encoder = drmModeGetEncoder(fd, c.encoder_id) {
                crtc = encoder.pointee.crtc_id
                drmModeFreeEncoder(encoder)
            }
            if crtc == 0 {
                for e in 0..<Int(c.count_encoders) {
                    guard let encoder = drmModeGetEncoder(fd, c.encoders[e]) else { continue }
                    defer { drmModeFreeEncoder(encoder) }
                    for k in 0..<Int(resources.pointee.count_crtcs) where encoder.pointee.possible_crtcs & (1 << k) != 0 {
                        crtc = resources.pointee.crtcs[k]
                        break
                    }
                    if crtc != 0 { break }
                }
            }
            guard crtc != 0 else { continue }
            let info = DisplayCardInfo.Connector(name: name, connected: true, widthMillimetres: Int(c.mmWidth),
                                                 heightMillimetres: Int(c.mmHeight), modes: [])
            let crtcIndex = (0..<Int(resources.pointee.count_crtcs)).first { resources.pointee.crtcs[$0] == crtc } ?? 0
            return (info, c.connector_id, mode, crtc, crtcIndex)
        }
        return nil
    }
}
