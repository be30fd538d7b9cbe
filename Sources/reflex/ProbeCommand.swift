import ReflexCore
import ArgumentParser
import ReflexFormats
import ReflexHardware

/// `reflex probe`: the hardware Reflex can see — cameras (and the media graphs they sit
/// behind), displays, input devices.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the cameras, displays and input devices this machine has.")

    @Option(help: "The /dev folder to look in (for tests and chroots).")
    var dev = "/dev"
    @Flag(help: "Print JSON instead of a table.") var json = false

    func run() throws {
        let cameras = CaptureDeviceProbe.scan(devFolder: dev)
        let displays = DisplayProbe.scan(driFolder: dev + "/dri")
        let inputs = InputProbe.scan(inputFolder: dev + "/input")
        let media = MediaGraphProbe.scan(devFolder: dev)
        let hardwareEncoder = VideoEncoderProbe.memoryToMemoryH264Encoder(devFolder: dev)
        let encoder = VideoEncoderChoice.firstThatOpens(VideoEncoderChoice.candidates(memoryToMemory: hardwareEncoder),
                                                        format: .fullHD)
        if json {
            print(ProbeJSON.describe(cameras: cameras.devices, media: media.graphs, displays: displays.cards,
                                     inputs: inputs.devices, videoEncoder: encoder.choice?.codecName,
                                     problems: cameras.problems + media.problems + displays.problems + inputs.problems).text)
            return
        }
        print("Cameras (V4L2):")
        if cameras.devices.isEmpty { print("  none found") }
        for camera in cameras.devices {
            print("  \(camera.path): \(camera.card) [driver \(camera.driver), \(camera.busInfo)]")
            for format in camera.formats {
                let sizes = format.sizes.map { size in
                    "\(size.width)x\(size.height)"
                        + (size.framesPerSecond.isEmpty ? "" : "@" + size.framesPerSecond.map(Self.rate).joined(separator: "/"))
                }
                print("    format \(format.fourCC)  \(format.description)"
                      + (sizes.isEmpty ? "" : "  " + sizes.joined(separator: " ")))
            }
            for control in camera.controls {
                let range = ["int", "int64", "menu", "intmenu", "bitmask"].contains(control.type)
                    ? " \(control.minimum)…\(control.maximum)" + (control.step > 1 ? " step \(control.step)" : "")
                    : ""
                print("    control \(control.name) [\(control.type)\(range), default \(control.defaultValue)]")
            }
        }
        cameras.problems.forEach { print("  ! \($0)") }

        print("Media controllers:")
        if media.graphs.isEmpty { print("  none found") }
        for (path, graph) in media.graphs { Self.describe(graph, path: path).forEach { print($0) } }
        media.problems.forEach { print("  ! \($0)") }

        print("Displays (DRM/KMS):")
        if displays.cards.isEmpty { print("  none found") }
        for card in displays.cards {
            print("  \(card.path): driver \(card.driver)")
            for connector in card.connectors {
                let size = connector.widthMillimetres > 0
                    ? ", \(connector.widthMillimetres)x\(connector.heightMillimetres) mm" : ""
                print("    connector \(connector.name): \(connector.connected ? "connected" : "disconnected")\(size)")
                for mode in connector.modes.prefix(8) { print("      mode \(mode)") }
                if connector.modes.count > 8 { print("      … \(connector.modes.count - 8) more modes") }
            }
        }
        displays.problems.forEach { print("  ! \($0)") }

        print("Input devices (libinput):")
        if inputs.devices.isEmpty { print("  none found") }
        for device in inputs.devices {
            let roles = device.capabilities.isEmpty ? "no capability libinput uses" : device.capabilities.joined(separator: ", ")
            print("  \(device.path): \(device.name) [\(roles)]")
        }
        inputs.problems.forEach { print("  ! \($0)") }

        print("Video encoder (H.264, for movies):")
        print("  " + (encoder.choice.map(\.description) ?? "none opens: movies cannot be recorded")
              + (hardwareEncoder == nil ? " (no V4L2 memory-to-memory H.264 encoder on this machine)" : ""))
        for (choice, error) in encoder.refused { print("  ! \(choice.codecName) cannot be opened: \(error)") }
    }

    /// A media graph as lines: each entity with its function and nodes, each pad with its
    /// format and where its links go, then the route from a sensor to each capture node.
    static func describe(_ graph: MediaGraph, path: String) -> [String] {
        var lines = ["  \(path): \(graph.driver) (\(graph.model)), \(graph.entities.count) entities"]
        func padName(_ id: UInt32) -> String {
            guard let pad = graph.pad(id), let entity = graph.entity(pad.entity) else { return "pad \(id)" }
            return "\"\(entity.name)\":\(pad.index)"
        }
        for entity in graph.entities {
            let nodes = graph.nodes.filter { $0.entity == entity.id && !$0.path.isEmpty }.map(\.path)
            lines.append("    entity \(entity.id) \"\(entity.name)\" [\(entity.function.label)]"
                         + (nodes.isEmpty ? "" : " " + nodes.joined(separator: " ")))
            for pad in graph.pads where pad.entity == entity.id {
                var line = "      pad \(pad.index) \(pad.isSource ? "source" : "sink")"
                if let format = graph.formats[pad.id] { line += " \(format)" }
                let outgoing = graph.links.filter { pad.isSource ? $0.source == pad.id : $0.sink == pad.id }.map { link in
                    (pad.isSource ? "→ " + padName(link.sink) : "← " + padName(link.source))
                        + " [" + (link.enabled ? "enabled" : "disabled") + (link.immutable ? ", immutable" : "") + "]"
                }
                if !outgoing.isEmpty { line += " " + outgoing.joined(separator: ", ") }
                lines.append(line)
            }
        }
        for capture in graph.captureNodes where !capture.path.isEmpty {
            guard let route = graph.route(toVideoNode: capture.path) else {
                lines.append("    \(capture.path): no sensor leads there")
                continue
            }
            let names = route.hops.compactMap { graph.entity($0.entity)?.name }
            var sensorNode = graph.node(of: route.sensor, kind: .subdevice).map { ", its controls on \($0.path)" } ?? ""
            if let lens = graph.lenses[route.sensor], let entity = graph.entity(lens) {
                sensorNode += ", its lens \(entity.name)" + (graph.node(of: lens, kind: .subdevice).map { " on \($0.path)" } ?? "")
            }
            lines.append("    \(capture.path) ← " + names.reversed().dropFirst().joined(separator: " ← ") + sensorNode
                         + (route.linksToEnable.isEmpty ? "" : " (\(route.linksToEnable.count) link(s) to enable)"))
        }
        return lines
    }

    static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : Formatting.fixed(fps, 2)
    }
}

/// The probe's findings as JSON, for integrators' scripts.
enum ProbeJSON {
    static func describe(cameras: [CaptureDeviceInfo], media: [(path: String, graph: MediaGraph)], displays: [DisplayCardInfo],
                         inputs: [InputDeviceInfo], videoEncoder: String?, problems: [String]) -> JSONText {
        .object([
            ("videoEncoder", .string(videoEncoder ?? "")),
            ("cameras", .array(cameras.map { camera in
                .object([
                    ("path", .string(camera.path)), ("card", .string(camera.card)), ("driver", .string(camera.driver)),
                    ("bus", .string(camera.busInfo)),
                    ("formats", .array(camera.formats.map { format in
                        .object([
                            ("fourcc", .string(format.fourCC.description)), ("description", .string(format.description)),
                            ("sizes", .array(format.sizes.map { size in
                                .object([("width", .number(Double(size.width))), ("height", .number(Double(size.height))),
                                         ("fps", .array(size.framesPerSecond.map { .number($0) }))])
                            })),
                        ])
                    })),
                    ("controls", .array(camera.controls.map { control in
                        .object([
                            ("id", .number(Double(control.id))), ("name", .string(control.name)), ("type", .string(control.type)),
                            ("minimum", .number(Double(control.minimum))), ("maximum", .number(Double(control.maximum))),
                            ("step", .number(Double(control.step))), ("default", .number(Double(control.defaultValue))),
                        ])
                    })),
                ])
            })),
            ("media", .array(media.map { path, graph in
                .object([
                    ("path", .string(path)), ("driver", .string(graph.driver)), ("model", .string(graph.model)),
                    ("entities", .array(graph.entities.map { entity in
                        .object([("id", .number(Double(entity.id))), ("name", .string(entity.name)),
                                 ("function", .string(entity.function.label)),
                                 ("nodes", .array(graph.nodes.filter { $0.entity == entity.id }.map { .string($0.path) }))])
                    })),
                    ("pads", .array(graph.pads.map { pad in
                        .object([("id", .number(Double(pad.id))), ("entity", .number(Double(pad.entity))),
                                 ("index", .number(Double(pad.index))), ("source", .bool(pad.isSource)),
                                 ("format", graph.formats[pad.id].map { .string($0.description) } ?? .string(""))])
                    })),
                    ("links", .array(graph.links.map { link in
                        .object([("source", .number(Double(link.source))), ("sink", .number(Double(link.sink))),
                                 ("enabled", .bool(link.enabled)), ("immutable", .bool(link.immutable))])
                    })),
                ])
            })),
            ("displays", .array(displays.map { card in
                .object([
                    ("path", .string(card.path)), ("driver", .string(card.driver)),
                    ("connectors", .array(card.connectors.map { connector in
                        .object([
                            ("name", .string(connector.name)), ("connected", .bool(connector.connected)),
                            ("widthMillimetres", .number(Double(connector.widthMillimetres))),
                            ("heightMillimetres", .number(Double(connector.heightMillimetres))),
                            ("modes", .array(connector.modes.map { mode in
                                .object([("width", .number(Double(mode.width))), ("height", .number(Double(mode.height))),
                                         ("refreshHz", .number(Double(mode.refreshHz))), ("preferred", .bool(mode.preferred))])
                            })),
                        ])
                    })),
                ])
            })),
            ("inputs", .array(inputs.map { device in
                .object([("path", .string(device.path)), ("name", .string(device.name)),
                         ("capabilities", .array(device.capabilities.map { .string($0) }))])
            })),
            ("problems", .array(problems.map { .string($0) })),
        ])
    }
}
