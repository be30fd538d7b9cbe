import NIOCore
import NIOPosix
import ReflexCore
import ReflexSystem

/// The camera's remote, served over HTTP by SwiftNIO (its HTTP/1.1 parser, its WebSocket
/// framing, sendfile for the card's files) on one event-loop thread of its own
/// (`reflex-remote`) and one for the card (`reflex-remote-io`), both at background priority
/// (nice 19, idle I/O, as the photo thread's: the saves and the viewfinder come first).
public final class RemoteServer: Sendable {
    /// The port bound (the one asked, or the kernel's choice for 0).
    public let port: Int
    public let site: RemoteSite
    private let group: MultiThreadedEventLoopGroup
    private let cardWork: NIOThreadPool
    private let listener: any Channel

    /// Listens on `host`:`port` (a board's interface address; 127.0.0.1 on a host).
    public init(host: String, port: Int, camera: any RemoteCamera, pairing: RemotePairingKeeper, pageFolder: String,
                log: @escaping @Sendable (String) -> Void) throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        cardWork = NIOThreadPool(numberOfThreads: 1)
        cardWork.start()
        let loop = group.next()
        try loop.submit { Self.becomeBackground("reflex-remote") }.wait()
        try cardWork.runIfActive(eventLoop: loop) { Self.becomeBackground("reflex-remote-io") }.wait()
        let site = RemoteSite(camera: camera, pairing: pairing, pageFolder: pageFolder, cardWork: cardWork, log: log)
        self.site = site
        do {
            listener = try ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 32)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // (TCP_NODELAY is a TCP option: as a socket option it is SO_DEBUG, which only root may set.)
                .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in site.configure(channel) }
                .bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            try? cardWork.syncShutdownGracefully()
            throw error
        }
        self.port = listener.localAddress?.port ?? port
    }

    /// Stops listening, closes every connection, and ends both threads.
    public func stop() {
        try? listener.close().wait()
        try? group.syncShutdownGracefully()
        try? cardWork.syncShutdownGracefully()
    }

    private static func becomeBackground(_ name: String) {
        WorkerThread.nameCallingThread(name)
        _ = WorkerThread.Priority.background.applyToCallingThread()
    }
}
