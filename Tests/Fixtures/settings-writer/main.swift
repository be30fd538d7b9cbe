// A child process for the SIGKILL test: saves a different settings value in a loop, for
// ever, announcing each one on stdout *before* saving it. Whatever instant it is killed
// at, the file must hold one of the last two values announced.
//
//     settings-writer FOLDER SEED
import ReflexCore
import ReflexStorage
#if canImport(Glibc)
import Glibc
#endif

/// One write(2) per line: a line on a pipe is then all there or not at all.
func say(_ line: String, to fd: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = Int(arguments[2]) else {
    say("usage: settings-writer FOLDER SEED", to: 2)
    exit(2)
}
let store = SettingsStore(folder: arguments[1])

var iteration = seed
while true {
    var settings = CameraSettings()
    settings.setMode(iteration % 7 == 0 ? .auto : .pro)
    settings.format = CaptureFormat.allCases[iteration % CaptureFormat.allCases.count]
    settings.geotag = iteration % 2 == 0
    if settings.mode == .pro {
        settings.iso = .manual(ISOSpeed.stopTable[iteration % ISOSpeed.stopTable.count])
        settings.shutter = .manual(ShutterSpeed.stopTable[iteration % ShutterSpeed.stopTable.count])
        settings.focus = .manual(FocusPosition(thousandths: iteration % 1001))
    }
    // One line per value: the file's own encoding with newlines made visible.
    let line = SettingsFile.encode(settings).split(separator: "\n").joined(separator: "|")
    say(line, to: 1)
    do {
        try store.save(settings)
    } catch {
        say("settings-writer: \(error)", to: 2)
        exit(1)
    }
    iteration += 1
}
