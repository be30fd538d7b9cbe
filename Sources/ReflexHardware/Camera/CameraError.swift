#if canImport(Glibc)
import Glibc
#endif

/// Why the camera stopped or refused: said plainly, for the log and the screen.
public enum CameraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device went away (unplugged, driver unbound, vivid's "disconnect").
    case disconnected(String)
    case failed(String, code: Int32)

    public var description: String {
        switch self {
        case .disconnected(let path): "camera \(path) disconnected"
        case .failed(let what, let code): "\(what): \(String(cString: strerror(code)))"
        }
    }

    static func from(_ what: String, path: String, code: Int32 = errno) -> CameraError {
        code == ENODEV || code == ENXIO ? .disconnected(path) : .failed("\(path): \(what)", code: code)
    }
}
