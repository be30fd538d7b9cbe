import ArgumentParser
import ReflexBench

/// The firmware's one binary. With no subcommand it runs the camera.
@main
struct Reflex: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "reflex",
        abstract: "Reflex — the firmware of a handheld camera.",
        discussion: """
            With no subcommand, reflex runs the camera. Settings live in one file under the \
            state folder: --state-dir, else $REFLEX_STATE_DIR, else /var/lib/reflex.
            """,
        version: version,
        subcommands: [Run.self, Capture.self, ReviewCommand.self, SettingsCommand.self, Probe.self, Bench.self, Stats.self,
                      NetworkCommand.self, USBCommand.self, UpdateCommand.self],
        defaultSubcommand: Run.self
    )
}

/// The state folder option, shared by every subcommand that touches settings.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"),
            help: "Folder for the settings file (default: $REFLEX_STATE_DIR, else /var/lib/reflex).")
    var stateDirectory: String?
}
