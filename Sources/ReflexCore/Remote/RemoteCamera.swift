/// What the remote's server asks of the camera it serves; the running camera's is
/// `CameraRemote` (ReflexRuntime). Every call comes from the server's own thread.
public protocol RemoteCamera: AnyObject, Sendable {
    /// The card's folder (its DCIM inside), nil while there is no card.
    var cardRoot: String? { get }
    /// The movie being recorded now (a path on the card): not offered until it is whole.
    var fileBeingWritten: String? { get }
    /// The HUD's values and the camera's state as one JSON object.
    func statusJSON() -> String
    /// A phone's control, carried out as the camera's own keys and dials are; nil when taken,
    /// else why not (said to the phone).
    func control(_ control: RemoteControl) -> String?
    /// Live-view frames to `receive` (on the camera's live-view thread) until the watch
    /// returned is ended; the camera makes them only while someone watches.
    func watchLive(_ receive: @escaping @Sendable (LiveFrame) -> Void) -> LiveWatch
}

/// A phone's watch of the live view; ended, its frames stop (and with the last one, the
/// camera's live-view work).
public final class LiveWatch: Sendable {
    private let ending: @Sendable () -> Void

    public init(ending: @escaping @Sendable () -> Void) {
        self.ending = ending
    }

    public func end() { ending() }
}
