import CRAUCBus
#if canImport(Glibc)
import Glibc
#endif

/// RAUC's service (the updater that runs as root) reached over D-Bus: it installs a bundle into
/// the slot not running, reports its progress, and keeps the bootloader's record of which slot
/// is good. The camera asks; RAUC alone writes slots and the bootloader's environment.
public final class RAUCService {
    /// A call RAUC (or the bus) refused, in its words.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// How far an installation has come (RAUC's Progress property).
    public struct Progress: Sendable, Equatable {
        public let percentage: Int
        public let message: String
    }

    private let bus: OpaquePointer

    /// Connects to RAUC on the bus at `address` (a test's own), else where RAUC's own client
    /// looks: the session bus when DBUS_STARTER_BUS_TYPE says "session", the system bus.
    public init(address: String? = nil) throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let sessionBus = getenv("DBUS_STARTER_BUS_TYPE").map { String(cString: $0) } == "session"
            ? getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) } : nil
        guard let bus = reflex_rauc_bus_open(address ?? sessionBus, &error, error.count) else { throw Failure(text: error) }
        self.bus = bus
    }

    deinit { reflex_rauc_bus_close(bus) }

    /// Starts installing the bundle at `path` (RAUC checks it again itself); its end comes
    /// through `waitForCompletion`.
    public func install(_ path: String) throws(Failure) {
        try call { reflex_rauc_bus_install(bus, path, $0, $1) }
    }

    /// Waits up to `seconds` for the installation's end: nil while it goes on, else RAUC's
    /// result (0 installed).
    public func waitForCompletion(seconds: Double) throws(Failure) -> Int32? {
        var completed: Int32 = 0, result: Int32 = 0
        try call { reflex_rauc_bus_wait(bus, UInt64(max(0, seconds) * 1_000_000), &completed, &result, $0, $1) }
        return completed != 0 ? result : nil
    }

    public func progress() throws(Failure) -> Progress {
        var percentage: Int32 = 0, depth: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        try call { reflex_rauc_bus_progress(bus, &percentage, &message, message.count, &depth, $0, $1) }
        return Progress(percentage: Int(percentage), message: String(text: message))
    }

    /// Why the last installation failed ("" when it did not).
    public func lastError() throws(Failure) -> String { try stringProperty("LastError") }

    /// "idle" or "installing".
    public func operation() throws(Failure) -> String { try stringProperty("Operation") }

    /// The bootname of the slot running ("A").
    public func bootSlot() throws(Failure) -> String { try stringProperty("BootSlot") }

    public func compatible() throws(Failure) -> String { try stringProperty("Compatible") }

    /// Marks `slot` ("booted", "other" or a slot's name) good, bad or active; the slot's name.
    @discardableResult
    public func mark(_ state: SlotMark, _ slot: String) throws(Failure) -> String {
        var name = [CChar](repeating: 0, count: 128), message = [CChar](repeating: 0, count: 512)
        try call { reflex_rauc_bus_mark(bus, state.rawValue, slot, &name, name.count, &message, message.count, $0, $1) }
        return String(text: name)
    }

    /// The slot the bootloader boots next ("rootfs.1").
    public func primary() throws(Failure) -> String {
        var slot = [CChar](repeating: 0, count: 128)
        try call { reflex_rauc_bus_primary(bus, &slot, slot.count, $0, $1) }
        return String(text: slot)
    }

    public enum SlotMark: String, Sendable {
        case good, bad, active
    }

    private func stringProperty(_ name: String) throws(Failure) -> String {
        var value = [CChar](repeating: 0, count: 1024)
        try call { reflex_rauc_bus_string_property(bus, name, &value, value.count, $0, $1) }
        return String(text: value)
    }

    /// Runs one of the C calls with room for its error sentence.
    private func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let code = error.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        if code < 0 { throw Failure(text: error) }
    }
}

private extension RAUCService.Failure {
    init(text: [CChar]) { self.init(description: String(text: text)) }
}

private extension String {
    /// The C string in `text`, up to its NUL.
    init(text: [CChar]) {
        self = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
