import CDRM

/// The planes a CRTC can use: its primary plane, and an overlay plane that takes ARGB8888
/// (the interface goes there, so the hardware composites it over the picture).
struct DRMPlanes {
    let primary: UInt32
    let overlay: UInt32?

    init?(_ fd: Int32, crtcIndex: Int) {
        guard let resources = drmModeGetPlaneResources(fd) else { return nil }
        defer { drmModeFreePlaneResources(resources) }
        var primary: UInt32?, overlay: UInt32?
        for i in 0..<Int(resources.pointee.count_planes) {
            guard let plane = drmModeGetPlane(fd, resources.pointee.planes[i]) else { continue }
            defer { drmModeFreePlane(plane) }
            guard plane.pointee.possible_crtcs & (1 << UInt32(crtcIndex)) != 0 else { continue }
            let type = DRMPropertyIDs(fd, object: plane.pointee.plane_id, type: REFLEX_DRM_MODE_OBJECT_PLANE).values["type"]
            let formats = UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats))
            if type == REFLEX_DRM_PLANE_TYPE_PRIMARY && primary == nil {
                primary = plane.pointee.plane_id
            } else if type == REFLEX_DRM_PLANE_TYPE_OVERLAY && overlay == nil
                        && formats.contains(REFLEX_DRM_FORMAT_ARGB8888) {
                overlay = plane.pointee.plane_id
            }
        }
        guard let primary else { return nil }
        self.primary = primary
        self.overlay = overlay
    }
}
