import ReflexCore
import ReflexRemote
import ReflexRuntime

/// What serving the remote needs besides an address, made once at start: the live view
/// (its sink on the sensor, its thread idle while nobody watches), the camera as the server
/// sees it, the pairing and the page.
struct RemoteStack {
    let liveView: LiveView
    let camera: CameraRemote
    let pairing: RemotePairingKeeper
    let pageFolder: String

    /// A server on `host`:`port` (port 0: any free one).
    func serve(host: String, port: Int, log: @escaping @Sendable (String) -> Void) throws -> RemoteServer {
        try RemoteServer(host: host, port: port, camera: camera, pairing: pairing, pageFolder: pageFolder, log: log)
    }
}
