import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexSystem

/// Connects the camera's threads to one another, so that none of them knows how to start
/// another: the sensor thread hands frames to sinks, the photo thread takes what the shutter
/// sends it, and only this wiring knows both.
public enum CameraWiring {
    /// Photos for `sensor`'s camera, saved to the card at `cardFolder`: a zero-lag ring
    /// within the memory budget (sized for the preview's frames at 16 bits a sample; they
    /// grow if a larger mode streams) becomes one of its sinks, and the photo thread starts.
    /// Returns the pipeline and how many frames the ring keeps.
    /// `cardIsMountPoint`: the card folder is a slot's mount point (nothing mounted: no card).
    /// `location`: the GPS fix at a press, for a photo taken with geotag on.
    public static func photos(for sensor: SensorPipeline, calibration: SensorCalibration, cardFolder: String,
                             cardIsMountPoint: Bool = false, stateFolder: String, software: String,
                             location: @escaping @Sendable (Double) -> GPSFix? = { _ in nil },
                             priority: WorkerThread.Priority = .background,
                             log: @escaping PhotoPipeline.Log) -> (PhotoPipeline, keptFrames: Int) {
        let budget = MemoryBudget.forFrames(cap: calibration.frameMemoryBytes)
        // A still mode's frames come first: two (one saving while the next is taken) if the
        // budget has room, else one; the ring has what is left.
        let stillFrames: FramePool? = if calibration.stillSource == .modeSwitch, let width = calibration.stillWidth,
                                         let height = calibration.stillHeight {
            FramePool(count: budget >= 4 * width * height * 2 ? 2 : 1, frameBytes: width * height * 2)
        } else {
            nil
        }
        let ring = ZeroLagRing.sized(budgetBytes: max(0, budget - (stillFrames.map { $0.count * $0.frameBytes } ?? 0)),
                                     frameBytes: calibration.streamWidth * calibration.streamHeight * 2)
        let photos = PhotoPipeline(numbering: CardNumbering(card: PhotoCard(root: cardFolder), counter: PhotoCounter(folder: stateFolder)),
                                   describer: PhotoDescriber(calibration: calibration, software: software, location: location),
                                   status: sensor.status,
                                   cardSpace: { StorageProbe.freeBytes(at: cardFolder, requireMountPoint: cardIsMountPoint) },
                                   spill: HeldPhotoSpill(folder: stateFolder + "/held",
                                                         limitBytes: max(64 << 20, budget / 2)),
                                   priority: priority,
                                   giveBack: { ring.giveBack($0); stillFrames?.giveBack($0) }, log: log)
        // The kernel's memory pressure, where it can be watched: the ring and the queue give
        // memory up as it rises.
        let pressure = MemoryPressureMonitor(log: log)
        let watched = pressure.start()
        photos.memoryPressure = watched ? pressure : nil
        sensor.takePhotos(ring: ring, stillFrames: stillFrames, photos: photos, memoryPressure: watched ? pressure : nil)
        photos.start()
        return (photos, ring.ringFrames)
    }

}
