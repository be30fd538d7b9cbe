import ReflexCore
import Synchronization

/// A camera for the server's tests: a card folder, a fixed status, the controls it was sent,
/// and live pictures made on a thread of its own while someone watches (a tiny JPEG, the same
/// each time), as the running camera's `CameraRemote` does with the sensor's.
final class RemoteTestCamera: RemoteCamera {
    let cardRoot: String?
    let writing = Mutex<String?>(nil)
    let controls = Mutex<[RemoteControl]>([])
    private let watchers = Mutex<[Int: @Sendable (LiveFrame) -> Void]>([:])
    private let stopped = Atomic<Bool>(false)

    /// A 1×1 grey JPEG.
    static let picture: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64) + [
        0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00,
        0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00,
        0xFF, 0xC4, 0x00, 0x14, 0x10, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00,
        0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0xFF, 0xD9]

    init(cardRoot: String?) {
        self.cardRoot = cardRoot
    }

    var fileBeingWritten: String? { writing.withLock { $0 } }

    func statusJSON() -> String { #"{"ready":true,"mode":"auto"}"# }

    func control(_ control: RemoteControl) -> String? {
        controls.withLock { $0.append(control) }
        return control == .record ? "no movie here" : nil
    }

    func watchLive(_ receive: @escaping @Sendable (LiveFrame) -> Void) -> LiveWatch {
        let key = watchers.withLock { all in
            let key = (all.keys.max() ?? 0) + 1
            all[key] = receive
            return key
        }
        return LiveWatch { [weak self] in _ = self?.watchers.withLock { $0.removeValue(forKey: key) } }
    }

    var watching: Int { watchers.withLock { $0.count } }

    /// One picture to everyone watching (the test's thread stands for the live view's).
    func sendPicture(_ sequence: UInt64) {
        let frame = LiveFrame(sequence: sequence, jpeg: Self.picture, width: 1, height: 1, sensorTime: 0)
        for receive in watchers.withLock({ Array($0.values) }) { receive(frame) }
    }
}
