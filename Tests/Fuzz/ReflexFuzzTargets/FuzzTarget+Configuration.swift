import ReflexCore
import ReflexHardware
import ReflexISP

/// The files a board maker or the camera itself writes and the camera reads at start: the
/// settings file (64 KiB at most, as `SettingsStore` reads it) and every board file (read as
/// UTF-8 text, 64 KiB at most, as `BoardFolder` reads them).
extension FuzzTarget {
    static let configurationTargets: [FuzzTarget] = [
        FuzzTarget("settings", "settings.conf (SettingsFile.decode)", longestInput: 8192) { bytes in
            if case .success(let decoded) = SettingsFile.decode(bytes) {
                // What was read is written back and reads the same: no value the reader
                // takes is one the writer cannot say.
                let again = SettingsFile.decode(Array(SettingsFile.encode(decoded.settings).utf8))
                guard case .success(let reread) = again, reread.settings == decoded.settings else {
                    fatalError("settings read from a file did not survive being written again: \(again)")
                }
            }
        },
        FuzzTarget("board-sensor", "a board's sensor.conf (SensorCalibration.parse)") { bytes in
            _ = SensorCalibration.parse(text(bytes))
        },
        FuzzTarget("board-display", "a board's display.conf (PanelConfiguration.parse)") { bytes in
            _ = PanelConfiguration.parse(text(bytes))
        },
        FuzzTarget("board-controls", "a board's controls.conf (BoardControls.parse)") { bytes in
            _ = BoardControls.parse(text(bytes))
        },
        FuzzTarget("board-video", "a board's video.conf (BoardVideo.parse)") { bytes in
            _ = BoardVideo.parse(text(bytes))
        },
        FuzzTarget("board-remote", "a board's remote.conf (BoardRemote.parse)") { bytes in
            _ = BoardRemote.parse(text(bytes))
        },
        FuzzTarget("network-state", "the remote's network service's state line (RootServiceState)") { bytes in
            _ = RootServiceState(line: text(bytes))
        },
        FuzzTarget("board-gps", "a board's gps.conf (GPSDAddress.parse)") { bytes in
            _ = GPSDAddress.parse(text(bytes))
        },
        FuzzTarget("board-lens", "a board's lens file (LensDescription, then its calibration)") { bytes in
            let lens = text(bytes)
            _ = LensDescription.parse(role: .tele, lens)
            _ = SensorCalibration.parse(lens, ignoring: LensDescription.keys)
        },
    ]

    /// Bytes as the board folder reads them: UTF-8, a bad sequence replaced, never refused.
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
