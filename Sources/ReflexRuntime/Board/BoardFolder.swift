import ReflexSystem
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexStorage
import ReflexVision
#if canImport(Glibc)
import Glibc
#endif

/// The board's description folder, the first of: `--board`; $REFLEX_BOARD_DIR;
/// /etc/reflex/board, which the board maker (or the image) points at the board in use
/// (/usr/share/reflex/boards/<name>); a `share/reflex/board` folder beside the binary's own
/// folder (/opt/x/bin/reflex → /opt/x/share/reflex/board). With none of these, the camera runs
/// uncalibrated and the log names /etc/reflex/board, where a board belongs.
public enum BoardFolder {
    public static let configuredPath = "/etc/reflex/board"
    public static let environmentVariable = "REFLEX_BOARD_DIR"

    public static func resolve(flag: String?) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = getenv(environmentVariable), value.pointee != 0 { return String(cString: value) }
        // From the binary's real file (/proc/self/exe): a link to it elsewhere still finds
        // the board installed with it.
        let besideBinary = installationPrefix(of: executablePath()) + "/share/reflex/board"
        return [configuredPath, besideBinary].first(where: isFolder) ?? configuredPath
    }

    /// The board's name: its folder's ("qemu-x86_64"), through the /etc/reflex/board link;
    /// "" when there is none.
    public static func name(of folder: String) -> String {
        guard let resolved = realpath(folder, nil) else { return "" }
        defer { free(resolved) }
        return String(String(cString: resolved).split(separator: "/").last ?? "")
    }

    /// The folder above the binary's folder: /usr for /usr/bin/reflex, "" (the root) for /bin/reflex.
    private static func installationPrefix(of executablePath: String) -> String {
        var components = executablePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(min(2, components.count))
        return components.joined(separator: "/")
    }

    /// A folder, or a link to one.
    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFDIR)
    }

    /// The sensor calibration, and a line for the log saying where it came from.
    public static func sensorCalibration(in folder: String) -> (SensorCalibration, String) {
        read("sensor.conf", in: folder, parse: { SensorCalibration.parse($0) }, fallback: SensorCalibration(),
             what: "sensor calibration", without: "the sensor runs uncalibrated")
    }

    /// The board's lenses (lenses/ultra-wide.conf, wide.conf, tele.conf: each lens's camera
    /// and place on the zoom, with its sensor's calibration); none on a board of one camera.
    /// A lens file that cannot be used is left out, and said.
    public static func lenses(in folder: String) -> ([BoardLens], [String]) {
        var lenses: [BoardLens] = []
        var notes: [String] = []
        for role in LensDescription.Role.allCases {
            let path = folder + "/lenses/" + role.rawValue + ".conf"
            guard let text = readText(path) else { continue }
            switch (LensDescription.parse(role: role, text), SensorCalibration.parse(text, ignoring: LensDescription.keys)) {
            case (.success(let lens), .success(let calibration)):
                lenses.append(BoardLens(description: lens, calibration: calibration))
                notes.append("board: \(role.rawValue) lens \(lens.label) from \(path) (camera \"\(lens.camera)\")")
            case (.failure(let problem), _), (_, .failure(let problem)):
                notes.append("board: \(path) is not usable (\(problem)); no \(role.rawValue) lens")
            }
        }
        return (lenses, notes)
    }

    /// The panel's description (card, connector, mode, rotation); none means the first
    /// connected display in its preferred mode, upright.
    public static func panelConfiguration(in folder: String) -> (PanelConfiguration, String) {
        read("display.conf", in: folder, parse: PanelConfiguration.parse, fallback: PanelConfiguration(),
             what: "panel", without: "the first connected display, upright")
    }

    /// The board's controls (controls.conf); none means two encoders (REFLEX_DIAL 1 turns
    /// the selected dial, 2 picks it) and the usual keys (KEY_CAMERA, KEY_CAMERA_FOCUS, the
    /// zoom and volume keys, KEY_MENU, KEY_RECORD).
    public static func controls(in folder: String) -> (BoardControls, String) {
        read("controls.conf", in: folder, parse: BoardControls.parse, fallback: BoardControls(),
             what: "controls", without: "the usual keys and two encoders")
    }

    /// Where the board's gpsd listens (gps.conf), the environment's GPSD_HOST and GPSD_PORT
    /// over it; none means gpsd's own port on the loopback address, 127.0.0.1:2947.
    public static func gpsAddress(in folder: String) -> (GPSDAddress, String) {
        let (address, note) = read("gps.conf", in: folder, parse: GPSDAddress.parse, fallback: GPSDAddress(),
                                   what: "gpsd's address", without: "gpsd at 127.0.0.1:2947")
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        return (address.overridden(host: environment("GPSD_HOST"), port: environment("GPSD_PORT")), note)
    }

    /// How the board records movies (video.conf); none means 1080p30 with ALSA's default
    /// microphone.
    public static func video(in folder: String) -> (BoardVideo, String) {
        read("video.conf", in: folder, parse: BoardVideo.parse, fallback: BoardVideo(),
             what: "movies' size and microphone", without: "movies at 1080p30 with ALSA's default microphone")
    }

    /// The person detector the board names instead of the shipped one (analysis.conf), or nil:
    /// the shipped one.
    public static func detectorModel(in folder: String) -> (DetectorModel?, String) {
        read("analysis.conf", in: folder, parse: { DetectorModel.parse($0, boardFolder: folder).map(Optional.some) },
             fallback: nil, what: "auto-zoom's person detector", without: "auto-zoom runs the shipped person detector")
    }

    /// How the board's remote reaches a phone (remote.conf), or nil: it has no way to.
    public static func remote(in folder: String) -> (BoardRemote?, String) {
        read("remote.conf", in: folder, parse: { BoardRemote.parse($0).map(Optional.some) }, fallback: nil,
             what: "the remote's network", without: "no network for the remote (only `reflex run --remote ADDRESS:PORT`)")
    }

    /// How the camera names itself on a USB cable: the board's name and the machine's serial,
    /// with a maker's own IDs and names from usb.conf where the board has one.
    public static func usbIdentity(in folder: String, version: String) -> (USBGadgetIdentity, String) {
        let identity = USBGadgetIdentity(board: name(of: folder), version: version,
                                         machineID: SmallFile.text("/etc/machine-id") ?? "")
        let (board, note) = read("usb.conf", in: folder, parse: BoardUSB.parse, fallback: BoardUSB(),
                                 what: "the USB identity", without: "USB IDs 1d6b:0104, the Linux Foundation's for a gadget")
        return (identity.adopting(board), note)
    }

    /// One board file parsed, or `fallback` when it is missing or unusable, with the line
    /// for the log that says which.
    private static func read<Value, Problem>(_ name: String, in folder: String, parse: (String) -> Result<Value, Problem>,
                                             fallback: Value, what: String, without: String) -> (Value, String) {
        let path = folder + "/" + name
        guard let text = readText(path) else { return (fallback, "board: no \(path); \(without)") }
        switch parse(text) {
        case .success(let value): return (value, "board: \(what) from \(path)")
        case .failure(let problem): return (fallback, "board: \(path) is not usable (\(problem)); \(without)")
        }
    }

    /// A board file's text; nil when it is missing or unreadable. (A board file is a few
    /// lines: 64 KiB is far more than one needs.)
    private static func readText(_ path: String) -> String? {
        (try? AtomicFile.read(path, limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self) }
    }
}
