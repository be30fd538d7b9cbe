import ArgumentParser
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexStorage
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The camera's USB gadget, as root, apart from the camera: started by reflex-usb.path when
/// the camera asks for it (the quick menu's USB Files or Tethered makes /run/reflex/usb-wanted),
/// it makes the gadget in configfs, mounts its FunctionFS folder for the camera's user and
/// gives the camera the controller's file, says so in its state file, and takes the gadget
/// apart and ends when the camera takes its request back or stops. So the camera, which
/// reads what a computer sends it, never holds the rights to make a gadget or mount.
struct USBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usb",
        abstract: "Make the camera's USB gadget while the camera asks for it (reflex-usb.service).")

    @Option(help: "The board folder (default: /etc/reflex/board).")
    var board: String?

    @Option(help: "The camera's request: the gadget is kept while this file exists.")
    var wanted = USBCommand.wantedFile

    @Option(name: .customLong("state-file"), help: "Where the gadget's state is written for the camera.")
    var stateFile = USBCommand.stateFile

    @Option(name: .customLong("function-folder"), help: "Where the gadget's FunctionFS is mounted for the camera.")
    var functionFolder = USBCommand.functionFolder

    @Option(help: "The camera's user: the FunctionFS folder and the controller's file are its.")
    var user = "reflex"

    static let wantedFile = "/run/reflex/usb-wanted"
    static let stateFile = "/run/reflex-usb/state"
    static let functionFolder = "/run/reflex-usb/ffs"

    func run() throws {
        TerminationSignal.blockTerminationSignals()
        let gadget = USBGadget()
        if makeGadget(gadget) {
            waitForTheRequestToGo()
            gadget.unbind()
            umount2(functionFolder, Int32(MNT_DETACH))
            gadget.remove()
            log("usb: the gadget taken apart (the camera no longer asks for it)")
        } else {
            waitForTheRequestToGo()
        }
        unlink(stateFile)
    }

    /// The gadget made and handed to the camera; false (said in the state file) when this
    /// machine cannot have one.
    private func makeGadget(_ gadget: USBGadget) -> Bool {
        guard let controller = USBGadget.controllers().first else {
            say(.failed("USB: this board has no USB device controller"))
            return false
        }
        // (configfs as a module may be loaded after boot's mount of it was tried.)
        if access(gadget.gadgets, F_OK) != 0 { mount("configfs", "/sys/kernel/config", "configfs", 0, nil) }
        guard access(gadget.gadgets, F_OK) == 0 else {
            say(.failed("USB: the kernel has no USB gadgets (libcomposite in configfs)"))
            return false
        }
        guard let account = getpwnam(user) else {
            say(.failed("USB: no user \(user) to give the gadget to"))
            return false
        }
        let (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
        let (identity, note) = BoardFolder.usbIdentity(in: BoardFolder.resolve(flag: board), version: Reflex.version)
        log(note)
        do {
            try gadget.create(identity)
            mkdir(functionFolder, 0o755)
            let options = "uid=\(uid),gid=\(gid)"
            _ = try systemCall("mount FunctionFS on", path: functionFolder) {
                mount(USBGadget.functionName, functionFolder, "functionfs", UInt(MS_NOSUID | MS_NODEV | MS_NOEXEC), options)
            }
            try gadget.giveControllerFile(to: uid, group: gid)
        } catch {
            say(.failed("USB: the gadget could not be made (\(error))"))
            umount2(functionFolder, Int32(MNT_DETACH))
            gadget.remove()
            return false
        }
        log("usb: the gadget \(identity.product) (serial \(identity.serialNumber)) made for \(controller); "
            + "its function at \(functionFolder)")
        say(.up(controller))
        return true
    }

    private func waitForTheRequestToGo() {
        while access(wanted, F_OK) == 0 {
            if case .terminate = TerminationSignal.wait(seconds: 0.5) { break }
        }
    }

    /// The state for the camera, whole or not at all (readable by it: the folder is 0755).
    private func say(_ state: RootServiceState) {
        log("usb: \(state)")
        do {
            try AtomicFile.write(Array((state.description + "\n").utf8), to: stateFile, permissions: 0o644)
        } catch {
            log("usb: cannot write \(stateFile): \(error)")
        }
    }
}
