import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The camera's USB gadget in configfs (libcomposite), made by the root service (`reflex
/// usb`): the device's identity and strings, one configuration holding one FunctionFS
/// function, whose folder is mounted for the camera's user. The camera itself writes the
/// interface into it and binds the gadget to the board's device controller (the `UDC`
/// file is given to it), so taking the cable's role on and off is the camera's own act.
public struct USBGadget: Sendable {
    /// configfs's gadgets (`/sys/kernel/config/usb_gadget`).
    public let gadgets: String
    public static let name = "reflex"
    /// FunctionFS's instance: `functions/ffs.reflex`, mounted as the device `reflex`.
    public static let functionName = "reflex"

    public init(gadgets: String = "/sys/kernel/config/usb_gadget") { self.gadgets = gadgets }

    public var folder: String { gadgets + "/" + Self.name }
    /// Where the controller's name is written to bind (empty to unbind).
    public var controllerFile: String { folder + "/UDC" }
    var functionFolder: String { folder + "/functions/ffs." + Self.functionName }
    var configurationFolder: String { folder + "/configs/c.1" }

    /// The device controllers the kernel has (`/sys/class/udc`: the board's, or dummy_hcd's).
    public static func controllers(in folder: String = "/sys/class/udc") -> [String] {
        namesInFolder(folder).sorted()
    }

    /// Makes the gadget (what is there from before is made again). Throws with the step
    /// that failed; what was made is left for `remove`.
    public func create(_ identity: USBGadgetIdentity) throws(SystemError) {
        remove()
        // (configfs makes strings/, functions/ and configs/ with each folder itself: they are
        // there already, and only a plain folder standing in for configfs needs them made.)
        for made in [folder, folder + "/strings", folder + "/strings/0x409", folder + "/functions", functionFolder, folder + "/configs",
                     configurationFolder, configurationFolder + "/strings", configurationFolder + "/strings/0x409"] {
            guard mkdir(made, 0o755) == 0 || errno == EEXIST else { throw SystemError("mkdir", path: made) }
        }
        for (attribute, value) in identity.attributes {
            let path = folder + "/" + attribute
            try write(value, to: path)
        }
        try write(USBGadgetIdentity.configurationName, to: configurationFolder + "/strings/0x409/configuration")
        try write(String(USBGadgetIdentity.maximumPowerMilliamps), to: configurationFolder + "/MaxPower")
        let link = configurationFolder + "/ffs." + Self.functionName
        _ = try systemCall("symlink", path: link) { symlink(functionFolder, link) }
    }

    /// The controller given to `user`, so the camera binds and unbinds the gadget itself.
    public func giveControllerFile(to user: uid_t, group: gid_t) throws(SystemError) {
        let path = controllerFile
        _ = try systemCall("chown", path: path) { chown(path, user, group) }
    }

    /// Binds the gadget to `controller`: a host on the cable sees the camera.
    public func bind(to controller: String) throws(SystemError) {
        try write(controller, to: controllerFile)
    }

    /// Unbinds it (nothing if it was not bound): the host sees the camera unplugged.
    public func unbind() {
        guard let bound = SmallFile.text(controllerFile), bound.contains(where: { !$0.isWhitespace }) else { return }
        try? write("", to: controllerFile)
    }

    /// Takes the gadget apart in the order configfs wants (unbound, the function out of the
    /// configuration, then each folder), whatever of it there is.
    public func remove() {
        guard access(folder, F_OK) == 0 else { return }
        unbind()
        unlink(configurationFolder + "/ffs." + Self.functionName)
        for folder in [configurationFolder + "/strings/0x409", configurationFolder, functionFolder, folder + "/strings/0x409", folder] {
            rmdir(folder)
        }
    }

    /// One attribute, as configfs takes it: one write of the value and a newline. (configfs
    /// made the file with its folder; O_CREAT is for a plain folder standing in for it.)
    private func write(_ value: String, to path: String) throws(SystemError) { try Self.writeAttribute(value, to: path) }

    /// One configfs attribute of any gadget (the bench's reference responder's too).
    public static func writeAttribute(_ value: String, to path: String) throws(SystemError) {
        let file = try FileDescriptor(opening: path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o644)
        let bytes = Array((value + "\n").utf8)
        // (Array's closures rethrow untyped errors: the typed one comes out as a Result.)
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try file.writeAll(buffer.baseAddress!, count: buffer.count, path: path) }
        }.get()
    }
}
