import Foundation
import ReflexCore
import ReflexHardware
import ReflexISP
import ReflexTestSupport
import Testing

/// Every board folder in the repository reads as reflex reads it at start: each file a board
/// may hold parses without a problem, and the Raspberry Pi 5 boards' facts come out as their
/// sensors' drivers and tuning say (Board/rpi5-imx477/README.md).
@Suite struct BoardFolderTests {
    static let boards = BoardFolders.names

    enum Board {
        static let root = BoardFolders.root

        static func text(_ board: String, _ file: String) -> String? {
            try? String(contentsOfFile: "\(root)/\(board)/\(file)", encoding: .utf8)
        }
    }

    @Test(arguments: boards) func eachFileParses(board: String) throws {
        let sensor = try #require(Board.text(board, "sensor.conf"), "every board calibrates its sensor")
        #expect(throws: Never.self) { try SensorCalibration.parse(sensor).get() }
        if let text = Board.text(board, "display.conf") {
            #expect(throws: Never.self) { try PanelConfiguration.parse(text).get() }
        }
        if let text = Board.text(board, "controls.conf") {
            #expect(throws: Never.self) { try BoardControls.parse(text).get() }
        }
        if let text = Board.text(board, "video.conf") {
            #expect(throws: Never.self) { try BoardVideo.parse(text).get() }
        }
        if let text = Board.text(board, "gps.conf") {
            #expect(throws: Never.self) { try GPSDAddress.parse(text).get() }
        }
    }

    @Test func theHQCamerasCalibrationIsItsSensors() throws {
        let calibration = try SensorCalibration.parse(#require(Board.text("rpi5-imx477", "sensor.conf"))).get()
        #expect(calibration.gainLaw == .reciprocal(1024))
        // The driver's analogue gain control runs 0…978: ISO 100…2226.
        let gain = GainMapping(controlRange: 0...978, law: try #require(calibration.gainLaw), baseISO: calibration.baseISO)
        #expect(gain.isoRange == 100...2226)
        #expect(calibration.blackLevel == 256)
        #expect((calibration.previewWidth, calibration.previewHeight) == (2028, 1520))
        #expect(calibration.stillSource == .modeSwitch)
        #expect((calibration.stillWidth, calibration.stillHeight) == (4056, 3040))
        // The colour matrices map their illuminant's white to the camera's neutral under it
        // (its AWB curve: R/G 0.261 and B/G 0.724 at D65), the green channel 1.
        let d65 = try #require(calibration.colorMatrix).apply(SIMD3(0.95047, 1.0, 1.08883))
        #expect(abs(d65.y - 1) < 0.002 && abs(d65.x - 0.261) < 0.002 && abs(d65.z - 0.724) < 0.002)
        let a = try #require(calibration.colorMatrixA).apply(SIMD3(1.09850, 1.0, 0.35585))
        #expect(abs(a.y - 1) < 0.002 && abs(a.x - 0.4307) < 0.002 && abs(a.z - 0.3957) < 0.002)
    }

    @Test func theCameraModule3sGainStartsAbove1x() throws {
        let calibration = try SensorCalibration.parse(#require(Board.text("rpi5-imx708", "sensor.conf"))).get()
        let gain = GainMapping(controlRange: 112...960, law: try #require(calibration.gainLaw), baseISO: calibration.baseISO)
        #expect(gain.isoRange == 112...1600)
        #expect(calibration.blackLevel == 64)
        #expect(calibration.focalLengthMillimetres == 4.74)
    }

    @Test func thePiBoardsControlsAndPanelAreTheBodys() throws {
        let controls = try BoardControls.parse(#require(Board.text("rpi5-imx477", "controls.conf"))).get()
        #expect(controls.encoders.map(\.name) == ["front", "rear", "top"])
        #expect(controls.statusLight == "ACT")
        let panel = try PanelConfiguration.parse(#require(Board.text("rpi5-imx477", "display.conf"))).get()
        #expect(panel.rotation == .clockwise90)
        let module3 = try BoardControls.parse(#require(Board.text("rpi5-imx708", "controls.conf"))).get()
        #expect(module3.encoders.first { $0.name == "top" }?.role == .dial(.focus))
    }
}
