import ArgumentParser
import ReflexHardware

/// `reflex probe`: the hardware Reflex can see — cameras, displays, input devices.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the cameras, displays and input devices this machine has.")

    @Option(help: "The /dev folder to look in (for tests and chroots).")
    var dev = "/dev"

    func run() throws {
        let cameras = CaptureDeviceProbe.scan(devFolder: dev)
        print("Cameras (V4L2):")
        if cameras.devices.isEmpty { print("  none found") }
        for camera in cameras.devices {
            print("  \(camera.path): \(camera.card) [driver \(camera.driver), \(camera.busInfo)]")
            for format in camera.formats {
                print("    format \(format.fourCC)  \(format.description)")
            }
            for control in camera.controls {
                let range = ["int", "int64", "menu", "intmenu", "bitmask"].contains(control.type)
                    ? " \(control.minimum)…\(control.maximum)" + (control.step > 1 ? " step \(control.step)" : "")
                    : ""
                print("    control \(control.name) [\(control.type)\(range), default \(control.defaultValue)]")
            }
        }
        cameras.problems.forEach { print("  ! \($0)") }

        let displays = DisplayProbe.scan(driFolder: dev + "/dri")
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

        let inputs = InputProbe.scan(inputFolder: dev + "/input")
        print("Input devices (libinput):")
        if inputs.devices.isEmpty { print("  none found") }
        for device in inputs.devices {
            let roles = device.capabilities.isEmpty ? "no capability libinput uses" : device.capabilities.joined(separator: ", ")
            print("  \(device.path): \(device.name) [\(roles)]")
        }
        inputs.problems.forEach { print("  ! \($0)") }
    }
}
