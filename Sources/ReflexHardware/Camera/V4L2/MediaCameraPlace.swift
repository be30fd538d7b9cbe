import ReflexCore

/// Where a capture node sits in a media graph: the media device, its graph, and the route
/// from the sensor to the node. A node with such a place is a media-controller camera; one
/// without (a UVC webcam, vivid) is a plain V4L2 camera.
public struct MediaCameraPlace: Sendable {
    public let mediaPath: String
    public let graph: MediaGraph
    public let route: MediaRoute
    public let videoPath: String

    /// The node at `videoPath`'s place, from the media devices in `devFolder`; nil when no
    /// graph has a sensor that reaches it.
    public static func find(videoPath: String, devFolder: String) -> MediaCameraPlace? {
        for (mediaPath, graph) in MediaGraphProbe.scan(devFolder: devFolder).graphs {
            if let route = graph.route(toVideoNode: videoPath) {
                return MediaCameraPlace(mediaPath: mediaPath, graph: graph, route: route, videoPath: videoPath)
            }
        }
        return nil
    }

    public var sensorName: String { graph.entity(route.sensor)?.name ?? "sensor" }

    /// The node of each hop that has a subdevice, with its entity's name (the capture end has none).
    func subdevicePath(of entity: UInt32) -> String? {
        graph.node(of: entity, kind: .subdevice).map(\.path).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The sensor's lens's subdevice (an ancillary link), where it has one.
    var lensPath: String? { graph.lenses[route.sensor].flatMap { subdevicePath(of: $0) } }
}
