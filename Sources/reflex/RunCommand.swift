import ArgumentParser
import ReflexCore
import ReflexStorage

/// Runs the camera. Until the display and sensor land (issues 4 and 5), it loads and
/// reports the settings the camera would start with, then says plainly that it cannot run.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the camera (the default when no subcommand is given).")

    @OptionGroup var state: StateOptions

    func run() throws {
        let store = SettingsStore(folder: StateFolder.resolve(flag: state.stateDirectory))
        let loaded = store.load()
        loaded.warnings.forEach(log)
        log("starting in \(loaded.settings.mode == .pro ? "Pro" : "Auto") mode"
            + (loaded.isFirstStart ? " (first start)" : "") + ", settings from \(store.path)")
        log("not yet: the sensor and display are not built into this version, so there is no camera to run. "
            + "`reflex probe` lists the hardware found; `reflex settings` manages the settings.")
        throw ExitCode(69)  // EX_UNAVAILABLE
    }
}
