import ReflexSystem
import ReflexCore
import ReflexHardware
import ReflexRuntime

/// The camera's GPS side: a gpsd client at the Board's address (or the environment's),
/// started at once and asking gpsd only while geotag is on.
enum GPSSetup {
    static func start(boardFolder: String, geotag: Bool, post: @escaping @Sendable (GPSStatus) -> Void = { _ in },
                      log: @escaping @Sendable (String) -> Void) -> GPSDClient {
        let (address, note) = BoardFolder.gpsAddress(in: boardFolder)
        log(note)
        let client = GPSDClient(address: address, post: post, log: log)
        if !client.start() { log("gps: cannot start the GPS thread; photos carry no location") }
        client.setEnabled(geotag)
        log("gps: gpsd at \(address); geotag " + (geotag ? "on" : "off (gpsd is not asked)"))
        return client
    }
}
