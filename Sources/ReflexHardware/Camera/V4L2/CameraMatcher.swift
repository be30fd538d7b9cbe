import ReflexCore
import ReflexISP

/// Finds the capture node a board's lens names (`camera` in its lens file): a node's path,
/// or a name that stays the same however the nodes are numbered: the sensor's media entity
/// ("imx708 10-001a"), the card, or the bus ("platform:vivid-001"). Only nodes that stream a
/// format Reflex shows count: a lens whose camera is missing or broken is not offered.
public enum CameraMatcher {
    /// The capture nodes present that Reflex can stream, each with the names it answers to.
    public struct Candidate: Sendable, Equatable {
        public let path: String
        public let names: [String]
        /// Hops from the sensor (1 for a plain camera, or a sensor's raw node): the shortest
        /// route wins where one sensor reaches several nodes.
        public let hops: Int

        public init(path: String, names: [String], hops: Int) {
            (self.path, self.names, self.hops) = (path, names, hops)
        }
    }

    /// The node `camera` names among `candidates`; nil when none.
    public static func match(_ camera: String, in candidates: [Candidate]) -> String? {
        if camera.hasPrefix("/") { return candidates.first { $0.path == camera }?.path }
        return candidates.filter { $0.names.contains(camera) }.min { $0.hops < $1.hops }?.path
    }

    /// The machine's capture nodes as candidates (a probe of `devFolder` and its media graphs).
    public static func candidates(devFolder: String) -> [Candidate] {
        let graphs = MediaGraphProbe.scan(devFolder: devFolder).graphs
        return CaptureDeviceProbe.scan(devFolder: devFolder).devices.compactMap { device in
            guard StreamFormatChoice.best(of: device.formats.map(\.fourCC.code)) != nil else { return nil }
            var names = [device.card, device.busInfo]
            var hops = 1
            for (_, graph) in graphs {
                guard let route = graph.route(toVideoNode: device.path), let sensor = graph.entity(route.sensor) else { continue }
                names.insert(sensor.name, at: 0)
                hops = route.hops.count - 1
            }
            return Candidate(path: device.path, names: names, hops: hops)
        }
    }
}
