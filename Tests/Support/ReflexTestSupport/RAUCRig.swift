import Foundation

/// The real RAUC service (`rauc service`, RAUC 1.8) on a D-Bus session bus of a test's own,
/// with two slots that are files and its GRUB backend writing a grubenv file as it would the
/// camera's boot partition. Stopped with the rig.
public final class RAUCRig {
    public let folder = TemporaryFolder()
    /// The bus's address, for RAUCService(address:) or DBUS_SESSION_BUS_ADDRESS.
    public let address: String
    public var systemConf: String { folder.file("system.conf") }
    public var grubenvPath: String { folder.file("grubenv") }
    private let bus: Process
    private let service: Process

    /// `keyring`: the certificate the service trusts (default: the development one).
    public init(keyring: String = GoldenImage.repository + "/image-build/keys/development.cert.pem") throws {
        for path in ["/usr/bin/rauc", "/usr/bin/dbus-daemon", "/usr/bin/grub-editenv"] where !FileManager.default.isExecutableFile(atPath: path) {
            throw RigProblem(description: "\(path) is missing (image-build/setup-host installs it)")
        }
        try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
        for slot in ["slot-a.img", "slot-b.img"] { folder.write("", to: slot) }
        try RAUCRig.run(["grub-editenv", folder.file("grubenv"), "create"])
        try RAUCRig.run(["grub-editenv", folder.file("grubenv"), "set", "ORDER=A B", "A_OK=1", "A_TRY=0", "B_OK=0", "B_TRY=0"])
        folder.write("""
            [system]
            compatible=reflex-qemu-x86_64
            bootloader=grub
            grubenv=\(folder.file("grubenv"))
            data-directory=\(folder.file("data"))

            [keyring]
            path=\(keyring)

            [slot.rootfs.0]
            device=\(folder.file("slot-a.img"))
            type=ext4
            bootname=A

            [slot.rootfs.1]
            device=\(folder.file("slot-b.img"))
            type=ext4
            bootname=B
            """, to: "system.conf")

        // The bus's address is the daemon's first line.
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let addressPipe = Pipe()
        bus.standardOutput = addressPipe
        try bus.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = addressPipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)

        // Booted from A, as the kernel's rauc.slot=A says on the camera.
        service = Process()
        service.executableURL = URL(fileURLWithPath: "/usr/bin/rauc")
        service.arguments = ["--conf=\(folder.file("system.conf"))", "--mount=\(folder.file("mount"))",
                             "--override-boot-slot=A", "service"]
        service.environment = sessionEnvironment.merging(["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]) { $1 }
        service.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        service.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try service.run()
        try waitForTheService()
    }

    deinit {
        // (RAUC's service outlives a SIGTERM while it holds the bus; nothing of it is kept.)
        for process in [service, bus] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// What makes RAUC's clients (and reflex's) use this bus.
    public var sessionEnvironment: [String: String] {
        ["DBUS_STARTER_BUS_TYPE": "session", "DBUS_SESSION_BUS_ADDRESS": address]
    }

    /// The grubenv's variables, as GRUB will read them.
    public func grubenv() throws -> [String: String] {
        let run = try ProgramRun(["grub-editenv", grubenvPath, "list"])
        return Dictionary(uniqueKeysWithValues: run.output.split(separator: "\n").compactMap { line in
            line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
        })
    }

    /// Waits until the service has its name on the bus (it takes it a moment after starting;
    /// the deadline is only a safety net against one that never comes).
    private func waitForTheService() throws {
        let deadline = Date().addingTimeInterval(120)
        while true {
            let asked = try ProgramRun(["gdbus", "call", "--address", address, "--dest", "de.pengutronix.rauc",
                                        "--object-path", "/", "--method", "org.freedesktop.DBus.Peer.Ping"])
            if asked.status == 0 { return }
            guard Date() < deadline, service.isRunning else {
                throw RigProblem(description: "RAUC's service never answered on \(address): \(asked.errors)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    public static func run(_ arguments: [String]) throws {
        let run = try ProgramRun(arguments)
        guard run.status == 0 else { throw RigProblem(description: "\(arguments.joined(separator: " ")): \(run.errors)") }
    }

    public struct RigProblem: Error, CustomStringConvertible {
        public let description: String
    }
}
