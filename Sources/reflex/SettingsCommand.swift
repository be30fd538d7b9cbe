import ReflexSystem
import ArgumentParser
import ReflexCore
import ReflexStorage

extension SettingsKey: ExpressibleByArgument {}

/// `reflex settings …`: the same file and the same atomic writes as the camera, for
/// integrators and for scripts.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change the camera's saved settings.",
        discussion: "Keys:\n" + SettingsKey.allCases.map { "  \($0.rawValue): \($0.allowedValues)" }.joined(separator: "\n"),
        subcommands: [Show.self, Get.self, Set.self, Reset.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every setting as `key = value`.")
        @OptionGroup var state: StateOptions

        func run() throws {
            let store = SettingsStore(folder: StateFolder.resolve(flag: state.stateDirectory))
            let loaded = store.load()
            loaded.warnings.forEach(log)
            print("# \(store.path)" + (loaded.isFirstStart ? " (not written yet: first-start defaults)" : ""))
            for key in SettingsKey.allCases {
                print("\(key.rawValue) = \(loaded.settings.value(of: key))")
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one setting's value.")
        @OptionGroup var state: StateOptions
        @Argument(help: "The setting's key.") var key: SettingsKey

        func run() throws {
            let loaded = SettingsStore(folder: StateFolder.resolve(flag: state.stateDirectory)).load()
            loaded.warnings.forEach(log)
            print(loaded.settings.value(of: key))
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one setting; it is saved at once, atomically.",
            discussion: "Manual values (iso, shutter, focus, white-balance) exist in Pro mode only: "
                + "set `mode pro` first. Setting `mode auto` returns them all to automatic.")
        @OptionGroup var state: StateOptions
        @Argument(help: "The setting's key.") var key: SettingsKey
        @Argument(help: "The new value.") var value: String

        func run() throws {
            let store = SettingsStore(folder: StateFolder.resolve(flag: state.stateDirectory))
            let loaded = store.load()
            loaded.warnings.forEach(log)
            var settings = loaded.settings
            do {
                try settings.set(key, from: value)
            } catch {
                throw ValidationError(error.description)
            }
            if let offending = settings.checkModeRule() {
                throw ValidationError(
                    "\(offending.rawValue) can only be manual in Pro mode; run `reflex settings set mode pro` first")
            }
            try saveOrExit(settings, to: store)
            print("\(key.rawValue) = \(settings.value(of: key))")
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Return every setting to its first-start default.")
        @OptionGroup var state: StateOptions

        func run() throws {
            try saveOrExit(.firstStart, to: SettingsStore(folder: StateFolder.resolve(flag: state.stateDirectory)))
        }
    }
}

/// Saves, or says why not and exits with EX_IOERR (74).
private func saveOrExit(_ settings: CameraSettings, to store: SettingsStore) throws {
    do {
        try store.save(settings)
    } catch {
        log("cannot save the settings: \(error)")
        throw ExitCode(74)
    }
}
