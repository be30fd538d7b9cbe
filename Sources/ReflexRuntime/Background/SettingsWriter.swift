import ReflexCore
import ReflexStorage
import ReflexSystem

/// Writes the settings file on a background thread of its own, so the realtime loop never
/// touches a file: the loop hands over the newest settings (a triple buffer: only the newest
/// matter) and the writer saves them atomically. That is its only job.
public final class SettingsWriter: @unchecked Sendable {
    private let pending = TripleBuffer { CameraSettings() }
    private let store: SettingsStore
    private let thread = WorkerThread(name: "reflex-settings", priority: .background)
    private let log: @Sendable (String) -> Void
    /// Where a failure to save is posted (and cleared once saving works again).
    private let status: StatusBoard?
    private var failing = false

    public init(store: SettingsStore, status: StatusBoard? = nil, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.status = status
        self.log = log
    }

    /// From the realtime loop: never waits.
    public func save(_ settings: CameraSettings) {
        pending.publish(settings)
        thread.wake()
    }

    public func start() {
        guard thread.start({ self.run() }) else {
            log("settings: cannot start the saving thread; changes will not be kept")
            return
        }
    }

    /// Saves what is still pending, then ends the thread.
    public func stop() { thread.stop() }

    private func run() {
        while true {
            thread.waitForWake()
            if pending.takeNewest() {
                do {
                    try store.save(pending.current)
                    if failing { status?.postSettingsError(nil) }
                    failing = false
                } catch {
                    log("settings: cannot save (\(error)); the camera keeps them until it stops")
                    status?.postSettingsError("Settings not saved: \(error.reason)")
                    failing = true
                }
            }
            if thread.isStopping { break }
        }
    }
}
