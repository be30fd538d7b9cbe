/// What the shutter button takes: a photo, or in Video a movie (it becomes the record
/// button). The board's record key records in either.
public enum CaptureKind: String, Sendable, CaseIterable {
    case photo, video
}
