import ReflexCore
import ArgumentParser
import ReflexHardware

/// `reflex probe`: the hardware Reflex can see — cameras, displays, input devices.
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
        if json {
            print(ProbeJSON.describe(cameras: cameras.devices, displays: displays.cards, inputs: inputs.devices,
                                     problems: cameras.problems + displays.problems + inputs.problems).text)
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
    }

    static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : Formatting.fixed(fps, 2)
    }
}

/// The probe's findings as JSON, for integrators' scripts.
enum ProbeJSON {
    static func describe(cameras: [CaptureDeviceInfo], displays: [DisplayCardInfo], inputs: [InputDeviceInfo],
                         problems: [String]) -> JSONText {
        .object([
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
