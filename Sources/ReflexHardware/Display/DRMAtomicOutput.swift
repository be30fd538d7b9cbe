import CDRM

/// Atomic mode setting for one CRTC: the mode set with the first frame, then one commit per
/// frame that swaps the primary plane's buffer (and the overlay's when the interface
/// changed), completed by a page-flip event. A frame's commit allocates nothing.
final class DRMAtomicOutput {
    static let planeProperties = ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]

    let fd: Int32
    let crtcID: UInt32
    let connectorID: UInt32
    let planes: DRMPlanes
    private let connectorCRTC: UInt32
    private let crtcProperties: [String: UInt32]
    private let primaryProperties: [String: UInt32]
    private let overlayProperties: [String: UInt32]?
    private let request: OpaquePointer
    private var modeBlob: UInt32 = 0
    /// The FB_ID properties, looked up once: a frame sets only these.
    private let primaryFramebufferProperty: UInt32
    private let overlayFramebufferProperty: UInt32?
    /// A frame's commit: up to two planes, one property (FB_ID) each.
    private let flipObjects = UnsafeMutablePointer<UInt32>.allocate(capacity: 2)
    private let flipPropertyCounts = UnsafeMutablePointer<UInt32>.allocate(capacity: 2)
    private let flipProperties = UnsafeMutablePointer<UInt32>.allocate(capacity: 2)
    private let flipValues = UnsafeMutablePointer<UInt64>.allocate(capacity: 2)

    /// Nil when the driver has no atomic support or lacks a property this needs.
    init?(fd: Int32, crtcID: UInt32, crtcIndex: Int, connectorID: UInt32) {
        guard drmSetClientCap(fd, REFLEX_DRM_CLIENT_CAP_ATOMIC, 1) == 0,
              let planes = DRMPlanes(fd, crtcIndex: crtcIndex),
              let connectorCRTC = DRMPropertyIDs(fd, object: connectorID, type: REFLEX_DRM_MODE_OBJECT_CONNECTOR)["CRTC_ID"],
              let crtcProperties = DRMPropertyIDs(fd, object: crtcID, type: REFLEX_DRM_MODE_OBJECT_CRTC).all(["MODE_ID", "ACTIVE"]),
              let primaryProperties = DRMPropertyIDs(fd, object: planes.primary, type: REFLEX_DRM_MODE_OBJECT_PLANE)
                .all(DRMAtomicOutput.planeProperties),
              let request = drmModeAtomicAlloc() else {
            return nil
        }
        self.fd = fd
        self.crtcID = crtcID
        self.connectorID = connectorID
        self.planes = planes
        self.connectorCRTC = connectorCRTC
        self.crtcProperties = crtcProperties
        self.primaryProperties = primaryProperties
        overlayProperties = planes.overlay.flatMap {
            DRMPropertyIDs(fd, object: $0, type: REFLEX_DRM_MODE_OBJECT_PLANE).all(DRMAtomicOutput.planeProperties)
        }
        self.request = request
        primaryFramebufferProperty = primaryProperties["FB_ID"]!
        overlayFramebufferProperty = overlayProperties?["FB_ID"]
        flipPropertyCounts.initialize(repeating: 1, count: 2)
    }

    deinit {
        for pointer in [flipObjects, flipPropertyCounts, flipProperties] { pointer.deallocate() }
        flipValues.deallocate()
        drmModeAtomicFree(request)
        if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) }
    }

    var hasOverlay: Bool { overlayProperties != nil }

    /// Sets the mode and shows the first buffers (blocking; once, at start).
    func setMode(_ mode: drmModeModeInfo, primary: UInt32, overlay: UInt32?, width: Int, height: Int) -> Bool {
        var mode = mode
        guard drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &modeBlob) == 0 else { return false }
        drmModeAtomicSetCursor(request, 0)
        add(connectorID, connectorCRTC, UInt64(crtcID))
        add(crtcID, crtcProperties["MODE_ID"]!, UInt64(modeBlob))
        add(crtcID, crtcProperties["ACTIVE"]!, 1)
        place(planes.primary, primaryProperties, framebuffer: primary, width: width, height: height)
        if let overlayPlane = planes.overlay, let overlayProperties, let overlay {
            place(overlayPlane, overlayProperties, framebuffer: overlay, width: width, height: height)
        }
        return drmModeAtomicCommit(fd, request, REFLEX_DRM_MODE_ATOMIC_ALLOW_MODESET, nil) == 0
    }

    /// Queues the next frame for the next vblank; its page-flip event carries `userData`.
    /// The ioctl is made directly from arrays filled in place: libdrm's drmModeAtomicCommit
    /// copies and sorts its request into fresh allocations on every call.
    func flip(primary: UInt32, overlay: UInt32?, userData: UnsafeMutableRawPointer) -> Bool {
        flipObjects[0] = planes.primary
        flipProperties[0] = primaryFramebufferProperty
        flipValues[0] = UInt64(primary)
        var count: UInt32 = 1
        if let overlay, let overlayPlane = planes.overlay, let overlayFramebufferProperty {
            flipObjects[1] = overlayPlane
            flipProperties[1] = overlayFramebufferProperty
            flipValues[1] = UInt64(overlay)
            count = 2
        }
        var commit = drm_mode_atomic()
        commit.flags = REFLEX_DRM_MODE_ATOMIC_NONBLOCK | REFLEX_DRM_MODE_PAGE_FLIP_EVENT
        commit.count_objs = count
        commit.objs_ptr = UInt64(UInt(bitPattern: flipObjects))
        commit.count_props_ptr = UInt64(UInt(bitPattern: flipPropertyCounts))
        commit.props_ptr = UInt64(UInt(bitPattern: flipProperties))
        commit.prop_values_ptr = UInt64(UInt(bitPattern: flipValues))
        commit.user_data = UInt64(UInt(bitPattern: userData))
        return drmIoctl(fd, REFLEX_DRM_IOCTL_MODE_ATOMIC, &commit) == 0
    }

    /// Takes the overlay plane off the CRTC (before giving the CRTC back to whoever had it).
    func disableOverlay() {
        guard let overlayPlane = planes.overlay, let overlayProperties else { return }
        drmModeAtomicSetCursor(request, 0)
        add(overlayPlane, overlayProperties["FB_ID"]!, 0)
        add(overlayPlane, overlayProperties["CRTC_ID"]!, 0)
        _ = drmModeAtomicCommit(fd, request, REFLEX_DRM_MODE_ATOMIC_ALLOW_MODESET, nil)
    }

    private func place(_ plane: UInt32, _ properties: [String: UInt32], framebuffer: UInt32, width: Int, height: Int) {
        // Source rectangles are 16.16 fixed point.
        let values: [(String, UInt64)] = [
            ("FB_ID", UInt64(framebuffer)), ("CRTC_ID", UInt64(crtcID)),
            ("SRC_X", 0), ("SRC_Y", 0), ("SRC_W", UInt64(width) << 16), ("SRC_H", UInt64(height) << 16),
            ("CRTC_X", 0), ("CRTC_Y", 0), ("CRTC_W", UInt64(width)), ("CRTC_H", UInt64(height)),
        ]
        for (name, value) in values { add(plane, properties[name]!, value) }
    }

    private func add(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
        _ = drmModeAtomicAddProperty(request, object, property, value)
    }
}
