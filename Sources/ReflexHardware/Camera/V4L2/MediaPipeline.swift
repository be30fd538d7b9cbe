import CV4L2
import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The subdevices on a media-controller camera's route, held open, and the formats along it:
/// the links the route needs enabled and those leading off it disabled (MEDIA_IOC_SETUP_LINK),
/// then each pad's format from the sensor out, each sink pad given what the pad before it
/// sends, as media-ctl's `-V` does; a branch that cannot be cut off is given the same. The
/// capture node's own format is set last, by the camera, to what arrives.
final class MediaPipeline {
    let place: MediaCameraPlace
    /// Sensor first, one for each hop but the capture end.
    private let hops: [(hop: MediaRoute.Hop, subdevice: V4L2Subdevice)]
    let lens: V4L2Subdevice?
    /// Links that could not be cut off the route, whose sinks get what their sources send.
    private let branches: [MediaGraph.Link]
    /// The links disabled to keep the stream to the route ("Debayer A:1 → Scaler:0").
    let cutOff: [String]
    /// What was done about the sensor's mounting, for the log (nil: it is upright).
    let mounting: String?

    init(_ place: MediaCameraPlace) throws(CameraError) {
        self.place = place
        var hops: [(MediaRoute.Hop, V4L2Subdevice)] = []
        for hop in place.route.hops.dropLast() {
            guard let path = place.subdevicePath(of: hop.entity) else {
                let name = place.graph.entity(hop.entity)?.name ?? "entity \(hop.entity)"
                throw CameraError.failed("\(place.mediaPath): \"\(name)\" on the way to \(place.videoPath) has no subdevice node",
                                         code: ENODEV)
            }
            hops.append((hop, try V4L2Subdevice(path: path)))
        }
        self.hops = hops
        // A lens that will not open costs the focus motor, not the camera.
        lens = place.lensPath.flatMap { try? V4L2Subdevice(path: $0) }
        let isolation = place.graph.isolation(of: place.route)
        branches = isolation.match
        cutOff = isolation.disable.map { place.graph.describe($0) }
        mounting = hops.first.flatMap { MediaPipeline.undoMounting(of: $0.1) }
        try setLinks(isolation.disable, enabled: false)
        try setLinks(place.route.linksToEnable, enabled: true)
    }

    /// Turns a sensor mounted upside down upright with its flips (`SensorMounting`), before
    /// any format is read or set: the flips change its Bayer order.
    private static func undoMounting(of sensor: V4L2Subdevice) -> String? {
        guard let rotation = try? sensor.controls.control(REFLEX_V4L2_CID_CAMERA_SENSOR_ROTATION) else { return nil }
        switch SensorMounting(rotation: Int(rotation)) {
        case .upright:
            return nil
        case .cannotUndo(let degrees):
            return "mounted turned \(degrees)°, which its flips cannot undo (display.conf's rotation can)"
        case .flipBoth:
            do throws(CameraError) {
                try sensor.controls.setControl(REFLEX_V4L2_CID_HFLIP, to: 1)
                try sensor.controls.setControl(REFLEX_V4L2_CID_VFLIP, to: 1)
            } catch {
                return "mounted turned 180°, and its flips were refused (\(error)): the picture is upside down"
            }
            return "mounted turned 180°: read out flipped both ways"
        }
    }

    var sensor: V4L2Subdevice { hops[0].subdevice }

    /// Subdevices whose controls the camera offers, the sensor's first.
    var controlSources: [V4L2Subdevice] { [sensor] + (lens.map { [$0] } ?? []) }

    /// The bus codes the last subdevice before the capture node can send.
    var codesArriving: [UInt32] {
        guard let last = hops.last, let pad = last.hop.sourcePad else { return [] }
        return last.subdevice.busCodes(pad: pad)
    }

    /// Sets the formats along the route for `code` to arrive at the capture node at about
    /// `width`×`height`; returns what arrives (the drivers may adjust the size). Where the
    /// route is the sensor alone the sensor sends `code`; through a debayer it sends its
    /// first Bayer code (a debayer takes nothing else).
    func configure(arriving code: UInt32, width: Int, height: Int) throws(CameraError) -> MediaBusFormat {
        var sending = MediaBusFormat(code: code, width: width, height: height)
        for (index, (hop, subdevice)) in hops.enumerated() {
            let last = index == hops.count - 1
            if let sink = hop.sinkPad {
                let received = try subdevice.setFormat(sending, pad: sink)
                // A scaler's source may differ in size from its sink: asked for the size wanted.
                sending = MediaBusFormat(code: last ? code : received.code, width: width, height: height)
            } else if !last {
                let bayer = subdevice.busCodes(pad: hop.sourcePad ?? 0).first(where: MediaBusFormat.isBayer)
                sending = MediaBusFormat(code: bayer ?? code, width: width, height: height)
            }
            guard let source = hop.sourcePad else { continue }
            sending = try subdevice.setFormat(sending, pad: source)
        }
        try matchBranches()
        return sending
    }

    /// Each branch's sink in the format its source pad sends, nearest the route first (so a
    /// branch's own branches follow it): a subdevice's pad, or a capture node beside the
    /// route (vimc validates a raw node's format against its sensor even when another node
    /// streams). A capture node busy elsewhere is left as it is: the stream start says if
    /// that matters.
    private func matchBranches() throws(CameraError) {
        let graph = place.graph
        for link in branches {
            guard let source = graph.pad(link.source), let sink = graph.pad(link.sink),
                  let sourcePath = place.subdevicePath(of: source.entity) else { continue }
            let sent = try V4L2Subdevice(path: sourcePath).format(pad: source.index)
            if let sinkPath = place.subdevicePath(of: sink.entity) {
                _ = try V4L2Subdevice(path: sinkPath).setFormat(sent, pad: sink.index)
            } else if let node = graph.node(of: sink.entity, kind: .video), !node.path.isEmpty,
                      let fourCC = MediaBusFormat.pixelFormats(forCode: sent.code).first,
                      let capture = try? V4L2Camera(path: node.path) {
                _ = try? capture.setFormat(fourCC: fourCC, width: sent.width, height: sent.height)
            }
        }
    }

    /// Turns links on or off (the graph's default may route elsewhere, or pull other
    /// entities into the stream).
    private func setLinks(_ links: [MediaGraph.Link], enabled: Bool) throws(CameraError) {
        guard !links.isEmpty else { return }
        let media: FileDescriptor
        do throws(SystemError) {
            media = try FileDescriptor(opening: place.mediaPath, O_RDWR)
        } catch {
            throw CameraError.from("open", path: place.mediaPath, code: error.code)
        }
        let channel = V4L2ControlChannel.direct(media.rawValue, path: place.mediaPath)
        for link in links {
            guard let source = place.graph.pad(link.source), let sink = place.graph.pad(link.sink) else { continue }
            var request = media_link_desc()
            request.source.entity = source.entity
            request.source.index = UInt16(source.index)
            request.sink.entity = sink.entity
            request.sink.index = UInt16(sink.index)
            request.flags = enabled ? REFLEX_MEDIA_LNK_FL_ENABLED : 0
            try channel.ioctl(REFLEX_MEDIA_IOC_SETUP_LINK, &request,
                              "\(enabled ? "enable" : "disable") the link \(source.entity):\(source.index) → \(sink.entity):\(sink.index)")
        }
    }
}
