#if canImport(Glibc)
import Glibc
#endif

/// Where Reflex keeps what must survive a restart. A flag wins over the environment, the
/// environment over the default, so an integrator can move it without a config file.
public enum StateFolder {
    public static let defaultPath = "/var/lib/reflex"
    public static let environmentVariable = "REFLEX_STATE_DIR"

    public static func resolve(flag: String?) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = getenv(environmentVariable), value.pointee != 0 { return String(cString: value) }
        return defaultPath
    }
}
