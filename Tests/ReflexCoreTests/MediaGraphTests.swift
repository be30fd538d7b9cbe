import ReflexCore
import Testing

/// The walk from a capture node back to its sensor, on vimc's graph as its driver builds it
/// (drivers/media/test-drivers/vimc/vimc-core.c): two sensors, each with a raw capture node
/// and a debayer, one scaler fed by a debayer or the RGB/YUV input, and its capture node.
@Suite("Media graph")
struct MediaGraphTests {
    /// Entities 1…9, pad ids 100 + 10 × entity + index.
    static func vimc(debayerAToScaler: Bool = true) -> MediaGraph {
        let sensor = EntityFunction(kernelValue: 0x0002_0001)
        let io = EntityFunction(kernelValue: 0x0001_0001)
        let debayer = EntityFunction(kernelValue: 0x4002), scaler = EntityFunction(kernelValue: 0x4005)
        let entities = [
            MediaGraph.Entity(id: 1, name: "Sensor A", function: sensor),
            MediaGraph.Entity(id: 2, name: "Sensor B", function: sensor),
            MediaGraph.Entity(id: 3, name: "Debayer A", function: debayer),
            MediaGraph.Entity(id: 4, name: "Debayer B", function: debayer),
            MediaGraph.Entity(id: 5, name: "Raw Capture 0", function: io),
            MediaGraph.Entity(id: 6, name: "Raw Capture 1", function: io),
            MediaGraph.Entity(id: 7, name: "RGB/YUV Input", function: sensor),
            MediaGraph.Entity(id: 8, name: "Scaler", function: scaler),
            MediaGraph.Entity(id: 9, name: "RGB/YUV Capture", function: io),
        ]
        func pad(_ entity: UInt32, _ index: UInt32, source: Bool) -> MediaGraph.Pad {
            MediaGraph.Pad(id: 100 + 10 * entity + index, entity: entity, index: index, isSource: source)
        }
        let pads = [pad(1, 0, source: true), pad(2, 0, source: true), pad(3, 0, source: false), pad(3, 1, source: true),
                    pad(4, 0, source: false), pad(4, 1, source: true), pad(5, 0, source: false), pad(6, 0, source: false),
                    pad(7, 0, source: true), pad(8, 0, source: false), pad(8, 1, source: true), pad(9, 0, source: false)]
        func link(_ from: (UInt32, UInt32), _ to: (UInt32, UInt32), enabled: Bool, immutable: Bool) -> MediaGraph.Link {
            MediaGraph.Link(source: 100 + 10 * from.0 + from.1, sink: 100 + 10 * to.0 + to.1, enabled: enabled, immutable: immutable)
        }
        let links = [link((1, 0), (3, 0), enabled: true, immutable: true), link((1, 0), (5, 0), enabled: true, immutable: true),
                     link((2, 0), (4, 0), enabled: true, immutable: true), link((2, 0), (6, 0), enabled: true, immutable: true),
                     link((3, 1), (8, 0), enabled: debayerAToScaler, immutable: false),
                     link((4, 1), (8, 0), enabled: false, immutable: false),
                     link((7, 0), (8, 0), enabled: false, immutable: false),
                     link((8, 1), (9, 0), enabled: true, immutable: true)]
        let nodes = [MediaGraph.Node(entity: 5, kind: .video, path: "/dev/video0"),
                     MediaGraph.Node(entity: 6, kind: .video, path: "/dev/video1"),
                     MediaGraph.Node(entity: 9, kind: .video, path: "/dev/video2"),
                     MediaGraph.Node(entity: 1, kind: .subdevice, path: "/dev/v4l-subdev0"),
                     MediaGraph.Node(entity: 2, kind: .subdevice, path: "/dev/v4l-subdev1")]
        return MediaGraph(driver: "vimc", model: "VIMC MDEV", entities: entities, pads: pads, links: links, nodes: nodes)
    }

    @Test func aRawCaptureNodeLeadsStraightToItsSensor() throws {
        let graph = Self.vimc()
        let route = try #require(graph.route(toVideoNode: "/dev/video1"))
        #expect(route.hops.map(\.entity) == [2, 6])
        #expect(route.hops.first == MediaRoute.Hop(entity: 2, sinkPad: nil, sourcePad: 0))
        #expect(route.hops.last == MediaRoute.Hop(entity: 6, sinkPad: 0, sourcePad: nil))
        #expect(route.linksToEnable.isEmpty)
        #expect(graph.node(of: route.sensor, kind: .subdevice)?.path == "/dev/v4l-subdev1", "the sensor's controls are there")
    }

    @Test func theProcessedNodeGoesThroughTheDebayerAndTheScaler() throws {
        let route = try #require(Self.vimc().route(toVideoNode: "/dev/video2"))
        try #require(route.hops.map(\.entity) == [1, 3, 8, 9])
        #expect(route.hops[1] == MediaRoute.Hop(entity: 3, sinkPad: 0, sourcePad: 1))
        #expect(route.linksToEnable.isEmpty)
    }

    @Test func linksNotEnabledAreTakenOnlyWhereNothingElseLeadsToASensor() throws {
        let route = try #require(Self.vimc(debayerAToScaler: false).route(toVideoNode: "/dev/video2"))
        // The nearest sensor through links that can be enabled: the RGB/YUV input, one hop.
        #expect(route.hops.map(\.entity) == [7, 8, 9])
        #expect(route.linksToEnable == [MediaGraph.Link(source: 170, sink: 180, enabled: false, immutable: false)])
    }

    @Test func nothingLeadsToASensorOrTheNodeIsUnknown() {
        let lonely = MediaGraph(driver: "x", model: "x",
                                entities: [MediaGraph.Entity(id: 1, name: "DMA", function: .videoIO)],
                                pads: [MediaGraph.Pad(id: 2, entity: 1, index: 0, isSource: false)], links: [],
                                nodes: [MediaGraph.Node(entity: 1, kind: .video, path: "/dev/video0")])
        #expect(lonely.route(toVideoNode: "/dev/video0") == nil)
        #expect(Self.vimc().route(toVideoNode: "/dev/video9") == nil)
    }

    @Test func aRawStreamCutsTheDebayersWayToTheScalerAndFeedsTheDebayerItsFormat() throws {
        let graph = Self.vimc()
        let route = try #require(graph.route(toVideoNode: "/dev/video0"))
        #expect(graph.routeLinks(route) == [MediaGraph.Link(source: 110, sink: 150, enabled: true, immutable: true)])
        let isolation = graph.isolation(of: route)
        // The sensor's link to its debayer is fixed: the debayer must agree with the sensor.
        #expect(isolation.match == [MediaGraph.Link(source: 110, sink: 130, enabled: true, immutable: true)])
        // The debayer's link on to the scaler is not: cut, the scaler stays out of the stream.
        try #require(isolation.disable == [MediaGraph.Link(source: 131, sink: 180, enabled: true, immutable: false)])
        #expect(graph.describe(isolation.disable[0]) == "Debayer A:1 → Scaler:0")
    }

    @Test func theProcessedStreamKeepsItsRouteAndFeedsTheRawNodeBeside() throws {
        let graph = Self.vimc()
        let route = try #require(graph.route(toVideoNode: "/dev/video2"))
        #expect(graph.routeLinks(route).count == 3)
        let isolation = graph.isolation(of: route)
        #expect(isolation.disable.isEmpty)
        #expect(isolation.match == [MediaGraph.Link(source: 110, sink: 150, enabled: true, immutable: true)])
    }

    @Test func aMutableLinkIntoTheRouteFromAnotherSourceIsCut() throws {
        // The scaler fed by Debayer A and, enabled as well, the RGB/YUV input.
        let base = Self.vimc()
        let links = base.links.map { link in
            link.source == 170 ? MediaGraph.Link(source: 170, sink: 180, enabled: true, immutable: false) : link
        }
        let graph = MediaGraph(driver: base.driver, model: base.model, entities: base.entities, pads: base.pads, links: links,
                               nodes: base.nodes)
        let route = try #require(graph.route(toVideoNode: "/dev/video2"))
        #expect(route.hops.map(\.entity) == [7, 8, 9], "the nearest sensor")
        #expect(graph.isolation(of: route).disable == [MediaGraph.Link(source: 131, sink: 180, enabled: true, immutable: false)])
    }

    @Test func capturesAreTheVideoNodesOfDMAEngines() {
        #expect(Self.vimc().captureNodes.map(\.path) == ["/dev/video0", "/dev/video1", "/dev/video2"])
        #expect(EntityFunction(kernelValue: 0x5002) == .bridge)
        #expect(EntityFunction(kernelValue: 0x0002_0003) == .lens)
        #expect(EntityFunction(kernelValue: 0x9999).label == "0x00009999")
    }
}
