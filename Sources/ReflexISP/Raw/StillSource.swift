/// Where photos come from when the preview streams a smaller mode than the sensor's full
/// resolution (`Board/<board>/sensor.conf`: `still-size` and `stills`).
public enum StillSource: String, Sendable, Equatable {
    /// The preview's own stream (no `still-size`): zero shutter lag at the preview's size.
    case preview
    /// `stills = stream`: the sensor streams `still-size` all the time and the preview is
    /// scaled from it. Zero shutter lag at full resolution, for sensors and links fast enough.
    case stream
    /// `stills = switch`: a press switches the sensor to `still-size` for one frame, then
    /// back. Full resolution on any sensor, at a lag the log states for each photo.
    case modeSwitch = "switch"
}
