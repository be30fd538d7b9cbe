/// How the picture is to be turned for viewing (TIFF/EXIF Orientation). Only the four
/// rotations: mirrored values are ignored by some editors (RawTherapee).
public enum PhotoOrientation: UInt16, Sendable {
    case upright = 1
    case upsideDown = 3
    /// Turn 90° clockwise to view.
    case turnedLeft = 6
    /// Turn 90° anticlockwise to view.
    case turnedRight = 8
}
