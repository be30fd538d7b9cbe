import CLinux
import ReflexCore
import ReflexStorage
import ReflexSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the screen's settings changes go: to the sensor thread (applied from its next
/// frame) and to a background thread that saves them, so the realtime loop never touches a
/// file. Each hand-off is a triple buffer: only the newest settings matter.
final class SettingsSaver: @unchecked Sendable {
    /// The sensor thread reads this one.
    let toSensor = TripleBuffer { CameraSettings() }
    private let toDisk = TripleBuffer { CameraSettings() }
    private let wakeUp = EventSignal()
    private let stopRequested = Atomic<Bool>(false)
    private let store: SettingsStore
    private var thread: pthread_t?

    init(store: SettingsStore) {
        self.store = store
    }

    /// From the realtime loop: never waits.
    func publish(_ settings: CameraSettings) {
        toSensor.publish(settings)
        toDisk.publish(settings)
        wakeUp.signal()
    }

    /// Settings fitted to the camera in use but not chosen by the photographer: the sensor
    /// applies them, the file keeps what was chosen.
    func publishToSensor(_ settings: CameraSettings) {
        toSensor.publish(settings)
    }

    func start() {
        thread = startThread { self.run() }
        if thread == nil { log("settings: cannot start the saving thread; changes will not be kept") }
    }

    /// Saves what is still pending, then ends the thread.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        wakeUp.signal()
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func run() {
        _ = reflex_make_thread_background()
        var descriptor = pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            descriptor.revents = 0
            _ = poll(&descriptor, 1, -1)
            wakeUp.drain()
            if toDisk.takeNewest() {
                do {
                    try store.save(toDisk.current)
                } catch {
                    log("settings: cannot save (\(error)); the camera keeps them until it stops")
                }
            }
            if stopRequested.load(ordering: .acquiring) { break }
        }
    }
}
