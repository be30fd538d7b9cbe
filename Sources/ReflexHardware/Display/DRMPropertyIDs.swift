import CDRM

/// The property ids of one KMS object (connector, CRTC or plane), by name.
struct DRMPropertyIDs {
    private var ids: [String: UInt32] = [:]
    private(set) var values: [String: UInt64] = [:]

    init(_ fd: Int32, object: UInt32, type: UInt32) {
        guard let properties = drmModeObjectGetProperties(fd, object, type) else { return }
        defer { drmModeFreeObjectProperties(properties) }
        for i in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[i]) else { continue }
            let name = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            ids[name] = property.pointee.prop_id
            values[name] = properties.pointee.prop_values[i]
            drmModeFreeProperty(property)
        }
    }

    subscript(_ name: String) -> UInt32? { ids[name] }

    /// All of `names`, or nil if the driver lacks one.
    func all(_ names: [String]) -> [String: UInt32]? {
        var found: [String: UInt32] = [:]
        for name in names {
            guard let id = ids[name] else { return nil }
            found[name] = id
        }
        return found
    }
}
