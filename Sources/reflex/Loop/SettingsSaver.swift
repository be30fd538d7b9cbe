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
    private let wakeDescriptor = reflex_event_fd()
    private let stopRequested = Atomic<Bool>(false)
    private let store: SettingsStore
    private var thread: pthread_t?
    /// Saves done (read from any thread, for tests and the log).
    let saves = Atomic<Int>(0)

    init(store: SettingsStore) {
        self.store = store
    }

    deinit { close(wakeDescriptor) }

    /// From the realtime loop: never waits.
    func publish(_ settings: CameraSettings) {
        toSensor.publish(settings)
        toDisk.publish(settings)
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Settings fitted to the camera in use but not chosen by the photographer: the sensor
    /// applies them, the file keeps what was chosen.
    func publishToSensor(_ settings: CameraSettings) {
        toSensor.publish(settings)
    }

    func start() {
        let retained = Unmanaged.passRetained(self)
        var created = pthread_t()
        guard pthread_create(&created, nil, { context in
            let saver = Unmanaged<SettingsSaver>.fromOpaque(context!).takeRetainedValue()
            saver.run()
            return nil
        }, retained.toOpaque()) == 0 else {
            retained.release()
            log("settings: cannot start the saving thread; changes will not be kept")
            return
        }
        thread = created
    }

    /// Saves what is still pending, then ends the thread.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func run() {
        _ = reflex_make_thread_background()
        var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            descriptor.revents = 0
            _ = poll(&descriptor, 1, -1)
            var count: UInt64 = 0
            _ = read(wakeDescriptor, &count, 8)
            if toDisk.takeNewest() {
                do {
                    try store.save(toDisk.current)
                    saves.add(1, ordering: .relaxed)
                } catch {
                    log("settings: cannot save (\(error)); the camera keeps them until it stops")
                }
            }
            if stopRequested.load(ordering: .acquiring) { break }
        }
    }
}
