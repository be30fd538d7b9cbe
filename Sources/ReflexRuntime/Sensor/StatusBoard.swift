import ReflexCore
import ReflexSystem
import Synchronization

/// Where the camera's threads post their part of the status, each through a hand-off of its
/// own (one writer each, never waiting), and where the interface takes the whole snapshot
/// once a frame.
public final class StatusBoard: @unchecked Sendable {
    private let sensor = TripleBuffer { SensorReport() }
    /// -2: not checked yet; -1: no card; else free bytes.
    private let storage = Atomic<Int64>(-2)
    private let pendingSaves = Atomic<Int>(0)
    private let merging = Atomic<Bool>(false)
    private let errors = TripleBuffer<String?> { nil }
    private let photos = TripleBuffer { PhotoReport() }
    private let movies = TripleBuffer { MovieReport() }
    private let timelapses = TripleBuffer { TimelapseReport() }
    private let gps = Atomic<UInt8>(GPSStatus.off.rawValue)
    private let remote = TripleBuffer { RemoteReport() }
    private let usb = Atomic<UInt8>(USBConnection.off.rawValue)
    private let wakeUp = EventSignal()

    public init() {}

    // MARK: the writers' sides

    /// The sensor thread's report (wakes the loop).
    public func post(_ report: SensorReport) {
        sensor.publish(report)
        wakeUp.signal()
    }

    /// The card's free bytes, nil without a card (the main thread's check); `readOnly`: the
    /// card is there but mounted read-only.
    public func postStorage(freeBytes: Int64?, readOnly: Bool = false) {
        storage.store(readOnly && freeBytes != nil ? StatusBoard.readOnlyCard : freeBytes ?? -1, ordering: .relaxed)
    }

    /// (How a read-only card is kept in the storage slot: -1 is no card, -2 not checked yet.)
    private static let readOnlyCard: Int64 = -3

    public func postPendingSaves(_ count: Int) { pendingSaves.store(count, ordering: .relaxed) }

    /// Whether the photo thread is merging an Enhanced RAW now (the screen says "Processing…").
    public func postMerging(_ busy: Bool) { merging.store(busy, ordering: .relaxed) }

    /// Why the settings cannot be saved, nil once they can (the settings writer's own slot).
    public func postSettingsError(_ message: String?) {
        errors.publish(message)
        wakeUp.signal()
    }

    /// The photo thread's report (wakes the loop: a new thumbnail to show; and the USB's
    /// event thread: a computer hears of a new photo as it is saved, not at its next look).
    public func postPhoto(_ report: PhotoReport) {
        photos.publish(report)
        wakeUp.signal()
        photosChanged.signal()
    }

    /// Signalled with each photo report, for one listener beside the loop: the USB's events
    /// (`PTPTransport.changed`).
    public let photosChanged = EventSignal()

    /// The movie thread's report (wakes the loop: the red dot, the time).
    public func postMovie(_ report: MovieReport) {
        movies.publish(report)
        wakeUp.signal()
    }

    /// The timelapse thread's report (wakes the loop: its progress on screen).
    public func postTimelapse(_ report: TimelapseReport) {
        timelapses.publish(report)
        wakeUp.signal()
    }

    /// The GPS client's status as it changes (wakes the loop: the icon changes).
    public func postGPS(_ status: GPSStatus) {
        gps.store(status.rawValue, ordering: .releasing)
        wakeUp.signal()
    }

    /// The remote's keeper's report (wakes the loop: the remote's sheet and icon change).
    public func postRemote(_ report: RemoteReport) {
        remote.publish(report)
        wakeUp.signal()
    }

    /// The USB keeper's state as it changes (wakes the loop: the icon changes).
    public func postUSB(_ connection: USBConnection) {
        guard usb.exchange(connection.rawValue, ordering: .acquiringAndReleasing) != connection.rawValue else { return }
        wakeUp.signal()
    }

    // MARK: the reader's side (the realtime loop)

    /// Readable when the sensor posted a report or an error came.
    public var wakeDescriptor: Int32 { wakeUp.descriptor }
    public func drainWake() { wakeUp.drain() }

    /// Brings `status` up to date; true when the sensor's report is new.
    @discardableResult
    public func update(_ status: inout CameraStatus) -> Bool {
        let newReport = sensor.takeNewest()
        if newReport { status.sensor = sensor.current }
        if errors.takeNewest() { status.settingsError = errors.current }
        if photos.takeNewest() { status.photo = photos.current }
        if movies.takeNewest() { status.movie = movies.current }
        if timelapses.takeNewest() { status.timelapse = timelapses.current }
        if remote.takeNewest() { status.remote = remote.current }
        let free = storage.load(ordering: .relaxed)
        status.storageChecked = free != -2
        status.storageReadOnly = free == StatusBoard.readOnlyCard
        status.storageFreeBytes = free >= 0 ? free : status.storageReadOnly ? 0 : nil
        status.pendingSaves = pendingSaves.load(ordering: .relaxed)
        status.merging = merging.load(ordering: .relaxed)
        status.gps = GPSStatus(rawValue: gps.load(ordering: .acquiring)) ?? .off
        status.usb = USBConnection(rawValue: usb.load(ordering: .acquiring)) ?? .off
        return newReport
    }

    /// The GPS client's status as posted (any thread may read it).
    public var latestGPS: GPSStatus { GPSStatus(rawValue: gps.load(ordering: .acquiring)) ?? .off }

    /// The newest sensor report (a loop opened again on another display starts from it).
    public func latestSensorReport() -> SensorReport {
        _ = sensor.takeNewest()
        return sensor.current
    }
}
