/// How a sensor sits on its board, as its driver reports it (V4L2_CID_CAMERA_SENSOR_ROTATION,
/// from the device tree's `rotation`): the Raspberry Pi HQ Camera's IMX477 and Camera Module
/// 3's IMX708 are mounted turned 180°. A half turn is undone by reading the sensor out
/// mirrored both ways (its HFLIP and VFLIP), as libcamera does, so the picture arrives upright;
/// that changes the Bayer order the sensor sends, so it is done before any format is chosen.
/// A quarter turn cannot be undone by flips (display.conf's `rotation` turns the panel).
public enum SensorMounting: Equatable, Sendable {
    /// Upright already: nothing to do.
    case upright
    /// Turned 180°: read out flipped both ways.
    case flipBoth
    /// Turned by a quarter (or an angle no driver should report): left as it is.
    case cannotUndo(degrees: Int)

    public init(rotation: Int) {
        switch ((rotation % 360) + 360) % 360 {
        case 0: self = .upright
        case 180: self = .flipBoth
        case let degrees: self = .cannotUndo(degrees: degrees)
        }
    }
}
