import ReflexCore
import ReflexSystem
import ReflexUI
import Synchronization

/// The running camera as its remote serves it (`RemoteCamera`): the card, the HUD's values
/// from the state the realtime loop last showed, a phone's controls posted to the loop as the
/// camera's own input is, the live view from `LiveView`.
public final class CameraRemote: RemoteCamera {
    private let liveView: LiveView
    private let loop: @Sendable () -> FrameLoop?
    private let card: @Sendable () -> String?
    private let movies: MovieRecorder?
    /// The newest state read, kept by the one thread that reads the loop's board.
    private let lastState = Mutex<ViewState?>(nil)

    /// `loop`: the realtime loop now (nil without a display, or while it is reopened);
    /// `cardRoot`: the card's folder while a card is in.
    public init(liveView: LiveView, loop: @escaping @Sendable () -> FrameLoop?, cardRoot: @escaping @Sendable () -> String?,
                movies: MovieRecorder?) {
        (self.liveView, self.loop, card, self.movies) = (liveView, loop, cardRoot, movies)
    }

    public var cardRoot: String? { card() }

    public var fileBeingWritten: String? { movies?.latestReport.recordingPath }

    public func statusJSON() -> String {
        let state = lastState.withLock { last in
            if let newest = loop()?.shownStates.newest() { last = newest }
            return last
        }
        guard let state else { return JSONText.object([("ready", .bool(false))]).text }
        return Self.json(state).text
    }

    public func control(_ control: RemoteControl) -> String? {
        guard let loop = loop() else { return "the camera's screen is not running" }
        return loop.post(control, at: monotonicSeconds()) ? nil : "the camera is busy; try again"
    }

    public func watchLive(_ receive: @escaping @Sendable (LiveFrame) -> Void) -> LiveWatch { liveView.watch(receive) }

    /// What the phone shows of `state`: the HUD's items and chips as the camera words them,
    /// and the settings its controls set.
    static func json(_ state: ViewState) -> JSONText {
        let settings = state.settings
        var members: [(String, JSONText)] = [
            ("ready", .bool(true)),
            ("mode", .string(settings.mode.rawValue)),
            ("capture", .string(settings.capture.rawValue)),
            ("format", .string(settings.format.rawValue)),
            ("formatLabel", .string(settings.format.label)),
            ("ev", .number(Double(settings.exposureCompensation.thirds))),
            ("drive", .string(settings.drive.badge ?? "Single")),
            ("driveMode", .string(settings.drive.mode.rawValue)),
            ("autoZoom", .bool(settings.autoZoom)),
            ("zoom", .number(Double(state.zoomTenths) / 10)),
            ("saving", .number(Double(state.savingCount))),
            ("hud", .array(InterfaceText.hudItems(state).map { item in
                .object([("label", .string(item.label)), ("value", .string(item.value)), ("manual", .bool(item.manual))])
            })),
            ("chips", .array(InterfaceText.indicators(state).map { chip in
                .object([("text", .string(chip.text)), ("attention", .bool(chip.attention))])
            })),
        ]
        if let photo = state.lastPhoto { members.append(("lastPhoto", .string(photo.number.fileStem))) }
        if let recording = state.recording { members.append(("recordingSeconds", .number(Double(recording.elapsedSeconds)))) }
        if case .low(let advice) = state.storage { members.append(("shotsLeft", .number(Double(advice.shotsLeft)))) }
        return .object(members)
    }
}
