import CV4L2
import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// Reads the graphs of the media controllers (/dev/mediaN) that most boards' CSI cameras sit
/// behind (Raspberry Pi's unicam and rp1-cfe, i.MX, Rockchip; vimc in the tests): the
/// driver and model (MEDIA_IOC_DEVICE_INFO), then entities, pads, links and device nodes
/// (MEDIA_IOC_G_TOPOLOGY, asked twice: once for the counts, once with room for them).
public enum MediaGraphProbe {
    public static func scan(devFolder: String = "/dev") -> (graphs: [(path: String, graph: MediaGraph)], problems: [String]) {
        var graphs: [(String, MediaGraph)] = []
        var problems: [String] = []
        for path in deviceNodes(in: devFolder, prefix: "media") {
            switch read(path: path, devFolder: devFolder) {
            case .success(let graph): graphs.append((path, graph))
            case .failure(let problem): problems.append(problem.message)
            }
        }
        return (graphs, problems)
    }

    public static func read(path: String, devFolder: String = "/dev") -> Result<MediaGraph, CaptureDeviceProbe.Problem> {
        do throws(SystemError) {
            let device = try FileDescriptor(opening: path, O_RDWR | O_NONBLOCK)
            var info = media_device_info()
            _ = try systemCall("media device info") { ioctl(device.rawValue, REFLEX_MEDIA_IOC_DEVICE_INFO, &info) }
            var counts = media_v2_topology()
            _ = try systemCall("media topology") { ioctl(device.rawValue, REFLEX_MEDIA_IOC_G_TOPOLOGY, &counts) }
            var entities = [media_v2_entity](repeating: media_v2_entity(), count: Int(counts.num_entities))
            var interfaces = [media_v2_interface](repeating: media_v2_interface(), count: Int(counts.num_interfaces))
            var pads = [media_v2_pad](repeating: media_v2_pad(), count: Int(counts.num_pads))
            var links = [media_v2_link](repeating: media_v2_link(), count: Int(counts.num_links))
            var topology = counts
            try entities.withUnsafeMutableBufferPointer { e throws(SystemError) in
                try interfaces.withUnsafeMutableBufferPointer { i throws(SystemError) in
                    try pads.withUnsafeMutableBufferPointer { p throws(SystemError) in
                        try links.withUnsafeMutableBufferPointer { l throws(SystemError) in
                            topology.ptr_entities = UInt64(UInt(bitPattern: e.baseAddress))
                            topology.ptr_interfaces = UInt64(UInt(bitPattern: i.baseAddress))
                            topology.ptr_pads = UInt64(UInt(bitPattern: p.baseAddress))
                            topology.ptr_links = UInt64(UInt(bitPattern: l.baseAddress))
                            _ = try systemCall("media topology") { ioctl(device.rawValue, REFLEX_MEDIA_IOC_G_TOPOLOGY, &topology) }
                        }
                    }
                }
            }
            // (The graph may have grown between the two calls: only what was read counts.)
            return .success(graph(info: info, entities: entities.prefix(Int(topology.num_entities)),
                                  interfaces: interfaces.prefix(Int(topology.num_interfaces)),
                                  pads: pads.prefix(Int(topology.num_pads)), links: links.prefix(Int(topology.num_links)),
                                  devFolder: devFolder))
        } catch {
            return .failure(CaptureDeviceProbe.Problem(message: "\(path): \(error.reason)"))
        }
    }

    private static func graph(info: media_device_info, entities: ArraySlice<media_v2_entity>,
                              interfaces: ArraySlice<media_v2_interface>, pads: ArraySlice<media_v2_pad>,
                              links: ArraySlice<media_v2_link>, devFolder: String) -> MediaGraph {
        var dataLinks: [MediaGraph.Link] = []
        var nodes: [MediaGraph.Node] = []
        var lenses: [UInt32: UInt32] = [:]
        for link in links {
            if link.flags & REFLEX_MEDIA_LNK_FL_LINK_TYPE == REFLEX_MEDIA_LNK_FL_INTERFACE_LINK {
                // An interface link: from a device node (its source) to the entity it reaches.
                guard let interface = interfaces.first(where: { $0.id == link.source_id }) else { continue }
                let kind: MediaGraph.NodeKind = switch interface.intf_type {
                case REFLEX_MEDIA_INTF_T_V4L_VIDEO: .video
                case REFLEX_MEDIA_INTF_T_V4L_SUBDEV: .subdevice
                default: .other
                }
                nodes.append(MediaGraph.Node(entity: link.sink_id, kind: kind,
                                             path: nodePath(major: interface.devnode.major, minor: interface.devnode.minor,
                                                            devFolder: devFolder)))
            } else if link.flags & REFLEX_MEDIA_LNK_FL_LINK_TYPE == REFLEX_MEDIA_LNK_FL_ANCILLARY_LINK {
                // Entity to entity: a sensor and the lens that focuses it.
                lenses[link.source_id] = link.sink_id
            } else if link.flags & REFLEX_MEDIA_LNK_FL_LINK_TYPE == REFLEX_MEDIA_LNK_FL_DATA_LINK {
                dataLinks.append(MediaGraph.Link(source: link.source_id, sink: link.sink_id,
                                                 enabled: link.flags & REFLEX_MEDIA_LNK_FL_ENABLED != 0,
                                                 immutable: link.flags & REFLEX_MEDIA_LNK_FL_IMMUTABLE != 0))
            }
        }
        var graph = MediaGraph(
            driver: string(fromCArray: info.driver), model: string(fromCArray: info.model),
            entities: entities.map { MediaGraph.Entity(id: $0.id, name: string(fromCArray: $0.name),
                                                       function: EntityFunction(kernelValue: $0.function)) },
            pads: pads.map { MediaGraph.Pad(id: $0.id, entity: $0.entity_id, index: $0.index,
                                            isSource: $0.flags & REFLEX_MEDIA_PAD_FL_SOURCE != 0) },
            links: dataLinks, nodes: nodes)
        graph.lenses = lenses
        for node in nodes where node.kind == .subdevice && !node.path.isEmpty {
            for pad in graph.pads where pad.entity == node.entity {
                if let format = padFormat(subdevice: node.path, pad: pad.index) { graph.formats[pad.id] = format }
            }
        }
        return graph
    }

    /// A subdevice pad's active format (VIDIOC_SUBDEV_G_FMT); nil where it cannot be read.
    public static func padFormat(subdevice path: String, pad: UInt32) -> MediaBusFormat? {
        guard let device = try? FileDescriptor(opening: path, O_RDWR | O_NONBLOCK) else { return nil }
        var format = v4l2_subdev_format()
        format.which = REFLEX_V4L2_SUBDEV_FORMAT_ACTIVE
        format.pad = pad
        guard ioctl(device.rawValue, REFLEX_VIDIOC_SUBDEV_G_FMT, &format) == 0 else { return nil }
        return MediaBusFormat(code: format.format.code, width: Int(format.format.width), height: Int(format.format.height))
    }

    /// A device node's path from its numbers: udev's name for it (/sys/dev/char/M:m/uevent's
    /// DEVNAME), in `devFolder`; empty when the system has no such node.
    static func nodePath(major: UInt32, minor: UInt32, devFolder: String) -> String {
        let uevent = "/sys/dev/char/\(major):\(minor)/uevent"
        guard let file = fopen(uevent, "r") else { return "" }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            var text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            while text.last == "\n" { text.removeLast() }
            if text.hasPrefix("DEVNAME=") { return devFolder + "/" + text.dropFirst("DEVNAME=".count) }
        }
        return ""
    }
}
