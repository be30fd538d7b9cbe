#if canImport(Glibc)
import Glibc
#endif

/// Every system call goes through here: a result of -1 is errno's failure, and a call a
/// signal interrupted (EINTR) is made again. The operation's words are autoclosures, so a
/// call that succeeds builds no String (the realtime paths call the system too).
@inline(__always)
public func systemCall<Result: FixedWidthInteger>(
    _ operation: @autoclosure () -> String, path: @autoclosure () -> String = "",
    retryOnInterrupt: Bool = true, _ call: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = call()
        guard result == -1 else { return result }
        let code = errno
        if code == EINTR && retryOnInterrupt { continue }
        throw SystemError(operation(), path: path(), code: code)
    }
}

/// For calls whose failure the caller reads from the value itself (a non-blocking read
/// that finds nothing): only EINTR is handled.
@inline(__always)
public func retryingOnInterrupt<Result: FixedWidthInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
