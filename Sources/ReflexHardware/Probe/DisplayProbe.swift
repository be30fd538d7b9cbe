import CDRM
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Finds DRM/KMS cards (`/dev/dri/cardN`) and lists each connector with its modes.
public enum DisplayProbe {
    public static func scan(driFolder: String = "/dev/dri") -> (cards: [DisplayCardInfo], problems: [String]) {
        var cards: [DisplayCardInfo] = []
        var problems: [String] = []
        for path in deviceNodes(in: driFolder, prefix: "card") {
            let card: FileDescriptor
            do throws(SystemError) {
                card = try FileDescriptor(opening: path, O_RDWR)
            } catch {
                problems.append("\(path): cannot open (\(error.reason))")
                continue
            }
            let fd = card.rawValue
            var driver = "unknown"
            if let version = drmGetVersion(fd) {
                driver = String(cString: version.pointee.name)
                drmFreeVersion(version)
            }
            guard let resources = drmModeGetResources(fd) else {
                problems.append("\(path) (\(driver)): no KMS resources (a render-only device?)")
                continue
            }
            defer { drmModeFreeResources(resources) }
            var connectors: [DisplayCardInfo.Connector] = []
            for index in 0..<Int(resources.pointee.count_connectors) {
                guard let connector = drmModeGetConnector(fd, resources.pointee.connectors[index]) else { continue }
                defer { drmModeFreeConnector(connector) }
                let c = connector.pointee
                let modes = (0..<Int(c.count_modes)).map { m in
                    let mode = c.modes[m]
                    return DisplayCardInfo.Mode(
                        width: Int(mode.hdisplay), height: Int(mode.vdisplay), refreshHz: Int(mode.vrefresh),
                        preferred: mode.type & REFLEX_DRM_MODE_TYPE_PREFERRED != 0)
                }
                connectors.append(.init(
                    name: "\(String(cString: reflex_drm_connector_type_name(c.connector_type)))-\(c.connector_type_id)",
                    connected: c.connection == DRM_MODE_CONNECTED,
                    widthMillimetres: Int(c.mmWidth), heightMillimetres: Int(c.mmHeight),
                    modes: modes))
            }
            cards.append(DisplayCardInfo(path: path, driver: driver, connectors: connectors))
        }
        return (cards, problems)
    }
}
