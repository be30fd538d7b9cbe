import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// The camera's side of its USB function, in the FunctionFS folder the root service mounted
/// for it (`reflex usb`): ep0 opened and given the still-image interface's descriptors and
/// strings (the kernel then makes ep1–ep3), its events read, its class requests answered;
/// the three endpoints opened as PTP's pipes. Everything here runs as the camera's own
/// user: the mount belongs to it.
public final class FunctionFSFunction: @unchecked Sendable {
    public let folder: String
    /// ep0: the function's events and the control requests' data.
    public let control: Int32

    /// Opens ep0 and writes the descriptors and strings; throws if the folder is no
    /// FunctionFS mount or the kernel refuses them.
    public init(folder: String) throws(SystemError) {
        self.folder = folder
        let path = folder + "/ep0"
        control = open(path, O_RDWR | O_CLOEXEC)
        guard control >= 0 else { throw SystemError("open", path: path) }
        for blob in [FunctionFSDescriptors.descriptors(), FunctionFSDescriptors.strings()] {
            let wrote = blob.withUnsafeBytes { Glibc.write(control, $0.baseAddress, blob.count) }
            guard wrote == blob.count else {
                let failure = SystemError("write the interface's descriptors to", path: path)
                Glibc.close(control)
                throw failure
            }
        }
    }

    deinit { Glibc.close(control) }

    /// Bulk in (ep1), bulk out (ep2), interrupt in (ep3), as the descriptors list them.
    /// Non-blocking only in what FunctionFS makes of it: a transfer still waits for the host,
    /// but one asked for while the function is disabled fails at once (rather than waiting
    /// for the next host), so the threads on them end when the host goes.
    public func openPipes() throws(SystemError) -> PTPPipes {
        var opened: [Int32] = []
        for (name, flags) in [("ep1", O_WRONLY), ("ep2", O_RDONLY), ("ep3", O_WRONLY)] {
            let descriptor = open(folder + "/" + name, flags | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                let failure = SystemError("open", path: folder + "/" + name)
                opened.forEach { Glibc.close($0) }
                throw failure
            }
            opened.append(descriptor)
        }
        return PTPPipes(bulkOut: opened[1], bulkIn: opened[0], interruptIn: opened[2],
                        packetSize: FunctionFSDescriptors.highSpeedBulkPacket, endsOnEmptyRead: false)
    }

    public static func close(_ pipes: PTPPipes) {
        for descriptor in [pipes.bulkIn, pipes.bulkOut, pipes.interruptIn] { Glibc.close(descriptor) }
    }

    /// The events ep0 has now (it is polled first: a read waits for one); nil once ep0 fails.
    public func readEvents() -> [FunctionFSEvent]? {
        var bytes = [UInt8](repeating: 0, count: FunctionFSEvent.size * 4)
        let got = retryingOnInterrupt { bytes.withUnsafeMutableBytes { read(control, $0.baseAddress, $0.count) } }
        guard got > 0 else { return got < 0 && errno == EAGAIN ? [] : nil }
        return FunctionFSEvent.events(in: Array(bytes[..<got]))
    }

    /// The data stage of a request to the device (`bytes` at most its length).
    public func send(_ bytes: [UInt8], answering setup: [UInt8]) {
        let wanted = setup.count >= 8 ? Int(setup[6]) | Int(setup[7]) << 8 : 0
        let answer = Array(bytes.prefix(wanted))
        _ = answer.withUnsafeBytes { Glibc.write(control, $0.baseAddress, answer.count) }
    }

    /// A request from the host taken: its data stage read (what it carried returned), or
    /// for one without data, its status stage acknowledged.
    @discardableResult
    public func accept(_ setup: [UInt8]) -> [UInt8] {
        let length = setup.count >= 8 ? Int(setup[6]) | Int(setup[7]) << 8 : 0
        var bytes = [UInt8](repeating: 0, count: max(length, 1))
        let got = bytes.withUnsafeMutableBytes { read(control, $0.baseAddress, length) }
        return got > 0 ? Array(bytes[..<got]) : []
    }

    /// A request refused: FunctionFS stalls ep0 when the function answers in the wrong
    /// direction (a read for a request to the host, a write for one from it).
    public func stall(_ setup: [UInt8]) {
        var none: UInt8 = 0
        if setup.first.map({ $0 & 0x80 != 0 }) ?? false {
            _ = read(control, &none, 0)
        } else {
            _ = Glibc.write(control, &none, 0)
        }
    }
}
