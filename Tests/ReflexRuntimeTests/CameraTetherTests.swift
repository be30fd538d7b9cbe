import Foundation
import ReflexCore
import ReflexHardware
import ReflexRuntime
import ReflexTestSupport
import Testing

/// The running camera as a computer on its USB cable sees it (issue 55): the card as review
/// lists it, its size and room, a JPEG's own EXIF thumbnail, a delete of one object (a pair's
/// other half left), and no capture while there is no realtime loop to take it.
@Suite struct CameraTetherTests {
    static let limits = SensorLimits(isoRange: 100...1600, exposureRange: 0.0001...0.5, hasFocusControl: false, hasRawFormat: true)
    static let report = {
        var report = SensorReport()
        (report.photoPixels, report.limits) = (1920 * 1080, limits)
        return report
    }()

    static func tether(card: TemporaryFolder?, mode: USBMode = .files) -> CameraTether {
        let root = card?.path
        return CameraTether(identity: USBGadgetIdentity(board: "qemu-x86_64", version: "0.1.0", machineID: ""), version: "0.1.0",
                            fNumber: 2.8, settings: CameraSettings(), usb: USBSwitch(mode), sensor: { Self.report },
                            loop: { nil }, cardRoot: { root })
    }

    /// A host offered the stops the sensor streaming now reaches, not the dials' whole tables.
    @Test func theDialsRealStops() throws {
        let tether = Self.tether(card: nil, mode: .tethered)
        var settings = CameraSettings()
        settings.mode = .pro
        let iso = try #require(PTPPropertyMap.describe(.exposureIndex, settings: settings, fNumber: 2.8, batteryPercent: nil,
                                                       limits: tether.limits))
        guard case .enumeration(let values) = iso.form else { Issue.record("an enumeration"); return }
        #expect(values.first == 0xFFFF && values.dropFirst().first == 100 && values.last == 1600, "Auto, then 100 to 1600: \(values)")
        let shutter = try #require(PTPPropertyMap.describe(.exposureTime, settings: settings, fNumber: 2.8, batteryPercent: nil,
                                                           limits: tether.limits))
        guard case .enumeration(let times) = shutter.form else { Issue.record("an enumeration"); return }
        #expect(times.last == 5000, "half a second at most (in tenths of a millisecond): \(times)")
    }

    @Test func theCardItsRoomAndAThumbnail() throws {
        let card = try ReviewScreenTests.card()
        let tether = Self.tether(card: card)
        #expect(tether.model == "Reflex qemu-x86_64" && !tether.isTethered)
        #expect(tether.cardItems()?.map(\.name) == ["100REFLX/RFLX0003", "100REFLX/RFLX0002", "100REFLX/RFLX0001"])
        let storage = try #require(tether.storage())
        #expect(storage.capacityBytes > 0 && storage.freeBytes <= storage.capacityBytes && storage.freeImages > 0)
        let thumbnail = try #require(tether.thumbnail(onCard: "DCIM/100REFLX/RFLX0001.JPG"))
        let whole = try TemporaryFolder.read(card.file("DCIM/100REFLX/RFLX0001.JPG"))
        #expect(thumbnail.prefix(2) == [0xFF, 0xD8] && thumbnail.count < whole.count / 2, "the file's own small JPEG")
        #expect(tether.path(onCard: "DCIM/100REFLX/RFLX0001.JPG") == card.file("DCIM/100REFLX/RFLX0001.JPG"))
    }

    @Test func aDeleteTakesOneObjectAndLeavesItsPair() throws {
        let card = try ReviewScreenTests.card()
        let tether = Self.tether(card: card)
        #expect(tether.delete(onCard: "DCIM/100REFLX/RFLX0002.DNG") == .ok)
        let files = try FileManager.default.contentsOfDirectory(atPath: card.file("DCIM/100REFLX")).sorted()
        #expect(files == ["RFLX0001.JPG", "RFLX0002.JPG", "RFLX0003.JPG"])
        #expect(tether.delete(onCard: "DCIM/100REFLX/RFLX0009.JPG") == .invalidObjectHandle)
    }

    @Test func noCardNoLoop() {
        let tether = Self.tether(card: nil, mode: .tethered)
        #expect(tether.isTethered)
        #expect(tether.cardItems() == nil && tether.storage() == nil)
        #expect(tether.delete(onCard: "DCIM/100REFLX/RFLX0001.JPG") == .storeNotAvailable)
        #expect(tether.capture() == .deviceBusy, "no realtime loop to take the photo")
        #expect(tether.settings == CameraSettings())
    }
}
