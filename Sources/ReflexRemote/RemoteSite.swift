import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ReflexCore
import Synchronization

/// What every connection of the remote shares: the camera, the pairing, the page's folder,
/// the thread that touches the card (listing, reading a thumbnail, deleting: never the event
/// loop's), and the log, which says each kind of refusal once a minute, not once a request.
public final class RemoteSite: Sendable {
    public let camera: any RemoteCamera
    public let pairing: RemotePairingKeeper
    /// The page's files (index.html, remote.js, remote.css), installed with the .deb.
    public let pageFolder: String
    let cardWork: NIOThreadPool
    private let log: @Sendable (String) -> Void
    private let lastSaid = Mutex<[String: Double]>([:])
    /// Which phone has the controls (one at a time; the others watch).
    private let controls = Mutex(ControlHolder())
    /// Each live-view picture's time from the sensor to the socket.
    public let liveLatencies = LiveFrameLatencies()
    /// The largest request head and body taken; more is refused (431, 413).
    static let headBytes = 8 * 1024, bodyBytes = FormFields.maximumBytes
    /// Seconds a connection may stay silent (a slow or stalled client is closed).
    static let idleSeconds: Int64 = 30

    /// Whether the phone with `token` may control the camera now (it then holds the
    /// controls). A holder no longer paired (Forget phones) holds nothing.
    func mayControl(token: String?) -> Bool {
        guard let token else { return false }
        let now = Double(NIODeadline.now().uptimeNanoseconds) / 1e9
        return controls.withLock { holder in
            if let current = holder.holder, !pairing.admits(current) { holder.release() }
            return holder.mayControl(token: token, at: now)
        }
    }

    public init(camera: any RemoteCamera, pairing: RemotePairingKeeper, pageFolder: String, cardWork: NIOThreadPool,
                log: @escaping @Sendable (String) -> Void) {
        (self.camera, self.pairing, self.pageFolder, self.cardWork, self.log) = (camera, pairing, pageFolder, cardWork, log)
    }

    /// `line` in the log, unless a line of the same `kind` was said in the last minute.
    func say(_ kind: String, _ line: String) {
        let now = NIODeadline.now().uptimeNanoseconds
        let seconds = Double(now) / 1e9
        let due = lastSaid.withLock { said in
            if let last = said[kind], seconds - last < 60 { return false }
            said[kind] = seconds
            return true
        }
        if due { log("remote: " + line) }
    }

    /// A new connection's pipeline: HTTP with the limits above, the WebSocket upgrade for a
    /// paired phone's live view, then the remote's own handler.
    func configure(_ channel: any Channel) -> EventLoopFuture<Void> {
        let http = RemoteHTTPHandler(site: self)
        let httpOnItsLoop = NIOLoopBound(http, eventLoop: channel.eventLoop)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 12, automaticErrorHandling: true,
            shouldUpgrade: { [self] channel, head in
                let allowed = RemoteRoute(path: head.uri) == .live && pairing.admits(RemoteCookie.token(in: head.headers["cookie"]))
                if !allowed { say("live-refused", "a live view asked without pairing was refused") }
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { [self] channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LiveViewSocket(camera: camera, latencies: liveLatencies))
                }
            })
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = Self.headBytes
        limits.maxHeaderListSize = Self.headBytes
        limits.maxHeaderFieldCount = 64
        return channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(IdleStateHandler(readTimeout: .seconds(Self.idleSeconds)))
            try pipeline.configureHTTPServerPipeline(
                withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                    context.pipeline.syncOperations.removeHandler(httpOnItsLoop.value, promise: nil)
                }),
                withErrorHandling: true, withOutboundHeaderValidation: true, withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(http)
        }
    }
}
