/// A media controller's graph as MEDIA_IOC_G_TOPOLOGY reports it: entities (a sensor, a
/// CSI-2 receiver, an ISP block, a DMA engine behind a /dev/videoN), their pads, the data
/// links between pads, and the device nodes (interfaces) that reach entities. Pure values,
/// so the walk from a capture node back to its sensor is tested on described graphs.
public struct MediaGraph: Sendable, Equatable {
    public struct Entity: Sendable, Equatable {
        public let id: UInt32
        public let name: String
        public let function: EntityFunction

        public init(id: UInt32, name: String, function: EntityFunction) {
            (self.id, self.name, self.function) = (id, name, function)
        }
    }

    public struct Pad: Sendable, Equatable {
        public let id: UInt32
        public let entity: UInt32
        /// The pad's number on its entity (what SETUP_LINK and subdev formats name).
        public let index: UInt32
        public let isSource: Bool

        public init(id: UInt32, entity: UInt32, index: UInt32, isSource: Bool) {
            (self.id, self.entity, self.index, self.isSource) = (id, entity, index, isSource)
        }
    }

    /// A data link from a source pad to a sink pad.
    public struct Link: Sendable, Equatable {
        public let source: UInt32
        public let sink: UInt32
        public var enabled: Bool
        /// Fixed by the hardware: always enabled, never changed.
        public let immutable: Bool

        public init(source: UInt32, sink: UInt32, enabled: Bool, immutable: Bool) {
            (self.source, self.sink, self.enabled, self.immutable) = (source, sink, enabled, immutable)
        }
    }

    /// A device node and the entity it reaches.
    public struct Node: Sendable, Equatable {
        public let entity: UInt32
        public let kind: NodeKind
        /// /dev/video0, /dev/v4l-subdev2 (empty where the system has no node for it).
        public let path: String

        public init(entity: UInt32, kind: NodeKind, path: String) {
            (self.entity, self.kind, self.path) = (entity, kind, path)
        }
    }

    public enum NodeKind: Sendable, Equatable {
        case video, subdevice, other
    }

    public let driver: String
    public let model: String
    public let entities: [Entity]
    public let pads: [Pad]
    public let links: [Link]
    public let nodes: [Node]
    /// Each subdevice pad's active format, by pad id (where its node could be read).
    public var formats: [UInt32: MediaBusFormat] = [:]
    /// A sensor's lens (an ancillary link from the sensor entity to its lens entity, whose
    /// subdevice has the focus control), by sensor entity id.
    public var lenses: [UInt32: UInt32] = [:]

    public init(driver: String, model: String, entities: [Entity], pads: [Pad], links: [Link], nodes: [Node]) {
        (self.driver, self.model, self.entities, self.pads, self.links, self.nodes) = (driver, model, entities, pads, links, nodes)
    }

    public func entity(_ id: UInt32) -> Entity? { entities.first { $0.id == id } }
    public func pad(_ id: UInt32) -> Pad? { pads.first { $0.id == id } }
    public func node(of entity: UInt32, kind: NodeKind) -> Node? { nodes.first { $0.entity == entity && $0.kind == kind } }

    /// The capture entities (a DMA engine's video node), each with its node's path.
    public var captureNodes: [Node] {
        nodes.filter { $0.kind == .video && entity($0.entity)?.function == .videoIO }
    }

    /// The route from a sensor to the entity behind the video node at `path`: the sensor
    /// first, each hop with the pads the stream enters and leaves by, and the links on the
    /// way that must be enabled first. Enabled links are preferred; where the stream can
    /// only come through links not enabled yet (a graph whose default routes elsewhere),
    /// the shortest such way is taken. Nil when no sensor reaches the node.
    public func route(toVideoNode path: String) -> MediaRoute? {
        guard let capture = nodes.first(where: { $0.kind == .video && $0.path == path })?.entity else { return nil }
        for enabledOnly in [true, false] {
            if let route = route(to: capture, enabledOnly: enabledOnly) { return route }
        }
        return nil
    }

    /// A breadth-first walk backwards along data links, from the capture entity to the
    /// nearest sensor.
    private func route(to capture: UInt32, enabledOnly: Bool) -> MediaRoute? {
        // For each entity reached: the link it was reached by (towards the capture end).
        var reachedBy: [UInt32: Link] = [:]
        var queue = [capture]
        var visited: Set<UInt32> = [capture]
        while !queue.isEmpty {
            let current = queue.removeFirst()
            if entity(current)?.function == .sensor { return unwind(from: current, to: capture, reachedBy: reachedBy) }
            for link in links where !enabledOnly || link.enabled {
                guard let sinkPad = pad(link.sink), sinkPad.entity == current, let sourcePad = pad(link.source),
                      !visited.contains(sourcePad.entity) else { continue }
                // An immutable link that is off can never carry the stream.
                if link.immutable && !link.enabled { continue }
                visited.insert(sourcePad.entity)
                reachedBy[sourcePad.entity] = link
                queue.append(sourcePad.entity)
            }
        }
        return nil
    }

    /// What streaming `route` asks of the rest of the graph. The kernel validates every
    /// enabled link of the pipeline a stream starts, and the pipeline is everything enabled
    /// links reach: a branch off the route (vimc's sensor feeds a debayer as well as its raw
    /// node) must agree with it or the stream is refused (EPIPE). So, as libcamera's simple
    /// pipeline does, the mutable links that lead off the route are disabled; the immutable
    /// ones cannot be, and their sink pads must be given the format their source sends
    /// (listed in the order to set them, nearest the route first).
    public func isolation(of route: MediaRoute) -> (disable: [Link], match: [Link]) {
        let onRoute = Set(routeLinks(route).map { [$0.source, $0.sink] })
        var disable: [Link] = []
        var match: [Link] = []
        var queue = route.hops.map(\.entity)
        var seen = Set(queue)
        while !queue.isEmpty {
            let current = queue.removeFirst()
            for link in links where link.enabled && !onRoute.contains([link.source, link.sink]) {
                guard let source = pad(link.source), let sink = pad(link.sink) else { continue }
                let leaves = source.entity == current
                // A mutable link into the route from elsewhere would join the pipeline too.
                let enters = sink.entity == current && route.hops.contains { $0.entity == current }
                guard leaves || enters else { continue }
                if !link.immutable {
                    if !disable.contains(link) { disable.append(link) }
                } else if leaves {
                    match.append(link)
                    if seen.insert(sink.entity).inserted { queue.append(sink.entity) }
                }
            }
        }
        return (disable, match)
    }

    /// "Debayer A:1 → Scaler:0", for the log.
    public func describe(_ link: Link) -> String {
        func end(_ id: UInt32) -> String {
            guard let pad = pad(id) else { return "pad \(id)" }
            return "\(entity(pad.entity)?.name ?? "entity \(pad.entity)"):\(pad.index)"
        }
        return end(link.source) + " → " + end(link.sink)
    }

    /// The links the route's stream takes, sensor first.
    public func routeLinks(_ route: MediaRoute) -> [Link] {
        zip(route.hops, route.hops.dropFirst()).compactMap { from, to in
            links.first { link in
                guard let source = pad(link.source), let sink = pad(link.sink) else { return false }
                return source.entity == from.entity && source.index == from.sourcePad
                    && sink.entity == to.entity && sink.index == to.sinkPad
            }
        }
    }

    private func unwind(from sensor: UInt32, to capture: UInt32, reachedBy: [UInt32: Link]) -> MediaRoute {
        var hops: [MediaRoute.Hop] = []
        var toEnable: [Link] = []
        var current = sensor
        var entering: UInt32?
        while current != capture, let link = reachedBy[current] {
            hops.append(MediaRoute.Hop(entity: current, sinkPad: entering, sourcePad: pad(link.source)?.index))
            if !link.enabled { toEnable.append(link) }
            entering = pad(link.sink)?.index
            current = pad(link.sink)!.entity
        }
        hops.append(MediaRoute.Hop(entity: capture, sinkPad: entering, sourcePad: nil))
        return MediaRoute(hops: hops, linksToEnable: toEnable)
    }
}

/// What a media entity is, by MEDIA_ENT_F_*: what the walk looks for.
public enum EntityFunction: Sendable, Equatable {
    case sensor
    case lens
    /// A DMA engine reached through a video node (MEDIA_ENT_F_IO_V4L).
    case videoIO
    /// A CSI-2 receiver or other bridge (MEDIA_ENT_F_VID_IF_BRIDGE).
    case bridge
    /// Processing: a debayer, a scaler, an ISP block (MEDIA_ENT_F_PROC_VIDEO_*).
    case processing
    case other(UInt32)

    /// From the kernel's MEDIA_ENT_F_* value (linux/media.h).
    public init(kernelValue value: UInt32) {
        switch value {
        case 0x0002_0001: self = .sensor       // MEDIA_ENT_F_CAM_SENSOR
        case 0x0002_0003: self = .lens         // MEDIA_ENT_F_LENS
        case 0x0001_0001: self = .videoIO      // MEDIA_ENT_F_IO_V4L
        case 0x5002: self = .bridge            // MEDIA_ENT_F_VID_IF_BRIDGE
        case 0x4001...0x4fff: self = .processing  // MEDIA_ENT_F_PROC_VIDEO_* (0x4001 …)
        default: self = .other(value)
        }
    }

    public var label: String {
        switch self {
        case .sensor: "sensor"
        case .lens: "lens"
        case .videoIO: "video I/O"
        case .bridge: "bridge"
        case .processing: "processing"
        case .other(let value): MediaGraph.hex(value)
        }
    }
}

/// The way a stream takes through a media graph, sensor first.
public struct MediaRoute: Sendable, Equatable {
    public struct Hop: Sendable, Equatable {
        public let entity: UInt32
        /// The pad the stream enters by (nil for the sensor) and leaves by (nil for the capture end).
        public let sinkPad: UInt32?
        public let sourcePad: UInt32?

        public init(entity: UInt32, sinkPad: UInt32?, sourcePad: UInt32?) {
            (self.entity, self.sinkPad, self.sourcePad) = (entity, sinkPad, sourcePad)
        }
    }

    public let hops: [Hop]
    /// Links on the way that are not enabled yet (MEDIA_IOC_SETUP_LINK turns them on).
    public let linksToEnable: [MediaGraph.Link]

    public var sensor: UInt32 { hops[0].entity }
}

extension MediaGraph {
    /// "0x00040001", as media-ctl writes an entity's function.
    public static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(8 - digits.count, 0)) + digits
    }
}
