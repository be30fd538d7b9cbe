import ReflexCore
import ReflexFormats
import ReflexHardware
import ReflexISP

/// A photo on its way to the card: the frame the press took (its memory lent by the
/// zero-lag ring until the files are made) and what its files must say.
public struct TakenPhoto: @unchecked Sendable {
    public let frame: FrameCopy
    public let press: ControlMailbox.CaptureRequest
    /// The settings at the press (the format, the mode, the manual values).
    public let settings: CameraSettings
    /// The frame's ISO, from its own exposure.
    public let iso: Int
    /// Frames between the one under way at the press and the one taken (0: no lag).
    public let framesLate: Int
    /// The press in local time, for EXIF.
    public let pressedAt: PhotoTime
    /// Where it was taken (the GPS fix at the press, at the precision chosen), found as the
    /// frame is taken, not when the photo is saved, which may be much later; nil: no GPS tags.
    public let location: GPSFix?
    /// The calibration of the lens that took it, on a board of several (nil: the board's one
    /// sensor's): its f-number, focal length and colour matrices go in the files.
    public let calibration: SensorCalibration?
    /// A bracket's frame: its offset from the bracket's base, thirds of a stop (nil: a photo
    /// of its own).
    public var bracketOffsetThirds: Int?
    /// Enhanced RAW's other frames from the zero-lag ring (nearest the press first), lent as
    /// `frame` is; held inline, so taking them allocates nothing on the sensor thread.
    public private(set) var alternates = InlineArray<7, FrameCopy?>(repeating: nil)
    public private(set) var alternateCount = 0
    /// Frames a merge takes at most, the press's own included.
    public static let mergedFramesAtMost = 8
    /// Fewer frames than this in the ring and Enhanced RAW is not offered (HDR+'s least).
    public static let mergedFramesAtLeast = 4

    public init(frame: FrameCopy, press: ControlMailbox.CaptureRequest, settings: CameraSettings, iso: Int,
                framesLate: Int, pressedAt: PhotoTime, location: GPSFix? = nil, calibration: SensorCalibration? = nil) {
        (self.frame, self.press, self.settings, self.iso) = (frame, press, settings, iso)
        (self.framesLate, self.pressedAt, self.location, self.calibration) = (framesLate, pressedAt, location, calibration)
    }

    /// Adds a frame to merge with `frame` (ignored past `mergedFramesAtMost`).
    public mutating func addAlternate(_ copy: FrameCopy) {
        guard alternateCount < alternates.count else { return }
        alternates[alternateCount] = copy
        alternateCount += 1
    }

    /// Every frame the photo holds: its own, then the alternates.
    public func forEachFrame(_ body: (FrameCopy) -> Void) {
        body(frame)
        for index in 0..<alternateCount { if let copy = alternates[index] { body(copy) } }
    }
}
