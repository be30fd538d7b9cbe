import ReflexRemote
import ReflexRuntime

/// The running remote: its live view's thread and its server, stopped together.
struct RemoteStack {
    let liveView: LiveView
    let server: RemoteServer

    func stop() {
        server.stop()
        liveView.stop()
    }
}
