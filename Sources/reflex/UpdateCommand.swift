import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// `reflex update FILE`: what the camera says of an update bundle found on its card, from a
/// shell — offered or refused, and why — and, without `--check`, its installation by RAUC's
/// service (over D-Bus) into the slot not running, its progress printed.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Check a firmware update bundle (.raucb) and install it beside the running system.",
        discussion: """
            The bundle must be signed by a key in the keyring that RAUC's system.conf names, and \
            be for this camera (its compatible). An older or the same version is refused unless \
            --force is given. Exits 0 when the bundle is offered (and, without --check, installed), \
            1 when it is refused, 2 when this system cannot be updated.
            """)

    @Argument(help: "The update bundle (.raucb).")
    var bundle: String

    @Flag(help: "Only say whether the camera would install it.")
    var check = false

    @Flag(help: "Install an older version, or the one running, too (never another board's or another key's).")
    var force = false

    @Option(name: .customLong("conf"), help: "RAUC's system configuration (default: \(UpdateInspector.systemConfigPath)).")
    var systemConfig = UpdateInspector.systemConfigPath

    @Option(name: .customLong("running-version"), help: "The version taken as running (default: this reflex's).")
    var runningVersion = Reflex.version

    func run() throws {
        guard let running = FirmwareVersion(runningVersion) else {
            throw ValidationError("--running-version \(runningVersion) is not MAJOR.MINOR.PATCH[+BUILD]")
        }
        let verdict: UpdateVerdict
        do {
            verdict = try UpdateInspector(systemConfigPath: systemConfig).verdict(on: bundle, running: running, forced: force)
        } catch {
            log("update: \(error)")
            throw ExitCode(2)
        }
        switch verdict {
        case .refused(let refusal):
            log("update: \(refusal) (\(refusal.detail))")
            if refusal.isOverridable { log("update: --force installs it anyway") }
            throw ExitCode(1)
        case .offer:
            print(verdict.question)
            if check { return }
            try install()
        }
    }

    /// RAUC's service installs it; its progress is printed as it comes.
    private func install() throws {
        let outcome: UpdateInstaller.Outcome
        do {
            outcome = try UpdateInstaller.install(bundle, with: RAUCService()) { progress in
                print("\(progress.percentage)% \(progress.message)")
                fflush(nil)
            }
        } catch {
            log("update: \(error)")
            throw ExitCode(2)
        }
        guard case .failed(let reason) = outcome else { return }
        log("update: RAUC could not install \(bundle): \(reason); the running system is unchanged")
        throw ExitCode(1)
    }
}
