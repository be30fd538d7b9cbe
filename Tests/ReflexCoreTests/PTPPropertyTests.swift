@testable import ReflexCore
import Testing

/// The camera's settings as PTP's standard device properties (issue 55, tethered): a host sees
/// the real values, sets one the way the camera's dials would, is refused with the standard's
/// code otherwise, and hears when the camera's own dials move one.
@Suite struct PTPPropertyTests {
    typealias Camera = PTPResponderTests.Camera

    static func tethered() -> (Camera, PTPResponder, UInt32) {
        let camera = Camera()
        camera.isTethered = true
        let (responder, transaction) = PTPResponderTests.opened(camera)
        return (camera, responder, transaction)
    }

    static func describe(_ property: PTPDeviceProperty, _ settings: CameraSettings = CameraSettings()) -> PTPPropertyDescription? {
        PTPPropertyMap.describe(property, settings: settings, fNumber: 2.8, batteryPercent: nil)
    }

    static func values(_ description: PTPPropertyDescription?) -> [Int64] {
        if case .enumeration(let values)? = description?.form { return values }
        return []
    }

    @Test func isoIsAutoOrAThirdStopOfTheDial() throws {
        var settings = CameraSettings()
        #expect(Self.describe(.exposureIndex)?.current == 0xFFFF, "Auto, as PTP 1.1 says it")
        settings.mode = .pro
        settings.iso = .manual(ISOSpeed(800))
        let iso = try #require(Self.describe(.exposureIndex, settings))
        #expect(iso.current == 800 && Self.values(iso) == [0xFFFF] + ISOSpeed.stopTable.map { Int64($0.value) })
        #expect(iso.encoded() == [0x0F, 0x50, 0x04, 0x00, 1, 0xFF, 0xFF, 0x20, 0x03, 2, 19, 0] + Self.values(iso).flatMap {
            [UInt8($0 & 0xFF), UInt8($0 >> 8)]
        }, "code, UINT16, settable, Auto by default, 800 now, an enumeration of 19")
        #expect(PTPPropertyMap.change(.exposureIndex, value: 1600, settings: settings) == .iso(.manual(ISOSpeed(1600))))
        #expect(PTPPropertyMap.change(.exposureIndex, value: 0xFFFF, settings: settings) == .iso(.auto))
    }

    @Test func theDialsValuesAreSettableInProAlone() {
        var settings = CameraSettings()
        settings.mode = .auto
        for property in [PTPDeviceProperty.exposureIndex, .exposureTime, .whiteBalance] {
            #expect(Self.describe(property, settings)?.settable == false, "\(property) is Auto's to choose")
        }
        #expect(Self.describe(.exposureProgramMode, settings)?.settable == true, "the mode itself is the host's to set")
        settings.mode = .pro
        for property in [PTPDeviceProperty.exposureIndex, .exposureTime, .whiteBalance] {
            #expect(Self.describe(property, settings)?.settable == true, "\(property) in Pro")
        }
    }

    @Test func shutterSpeedsAreTenthsOfAMillisecondEachOnce() throws {
        var settings = CameraSettings()
        settings.shutter = .manual(ShutterSpeed(1, 125))
        let shutter = try #require(Self.describe(.exposureTime, settings))
        #expect(shutter.current == 80 && Self.values(shutter).first == 0 && Self.values(shutter).last == 10_000)
        #expect(Set(Self.values(shutter)).count == Self.values(shutter).count, "no value twice")
        #expect(PTPPropertyMap.change(.exposureTime, value: 2, settings: settings) == .shutter(.manual(ShutterSpeed(1, 5000))),
                "1/6400 and 1/5000 are both 2: the exact one")
        #expect(PTPPropertyMap.change(.exposureTime, value: 3000, settings: settings) == .shutter(.manual(ShutterSpeed(3, 10))))
        #expect(PTPPropertyMap.change(.exposureTime, value: 0, settings: settings) == .shutter(.auto))
    }

    @Test func compensationWhiteBalanceModeDriveAndFormat() throws {
        var settings = CameraSettings()
        #expect(Self.values(Self.describe(.exposureBiasCompensation)).prefix(3) == [-3000, -2667, -2333])
        #expect(PTPPropertyMap.change(.exposureBiasCompensation, value: 667, settings: settings)
                == .exposureCompensation(ExposureCompensation(thirds: 2)))
        settings.whiteBalance = .kelvin(4800)
        #expect(Self.describe(.whiteBalance, settings)?.current == 1 && Self.values(Self.describe(.whiteBalance, settings)).contains(1),
                "a Kelvin value is Manual")
        #expect(PTPPropertyMap.change(.whiteBalance, value: 0x8001, settings: settings) == .whiteBalance(.preset(.cloudy)))
        #expect(!Self.values(Self.describe(.whiteBalance)).contains(1), "Manual is offered only while it is the camera's")
        #expect(PTPPropertyMap.change(.exposureProgramMode, value: 1, settings: settings) == .mode(.pro))
        #expect(PTPPropertyMap.change(.stillCaptureMode, value: 3, settings: settings) == .drive(.interval))
        #expect(PTPPropertyMap.change(.compressionSetting, value: 2, settings: settings) == .format(.rawPlusJPEG))
        #expect(Self.describe(.fNumber)?.current == 280 && Self.describe(.fNumber)?.settable == false)
        #expect(Self.describe(.batteryLevel) == nil, "no fuel gauge, no battery level")
    }

    /// A camera whose sensor has no Bayer format saves JPEG alone: the computer is offered
    /// that, captures make JPEGs, and RAW asked for is refused.
    @Test func aSensorWithoutRawOffersJPEGAlone() {
        var (camera, responder, transaction) = Self.tethered()
        camera.limits = SensorLimits(isoRange: 100...1600, exposureRange: 0.0001...0.5, hasFocusControl: false, hasRawFormat: false)
        let description = PTPResponder.describe(.compressionSetting, camera)
        #expect(Self.values(description) == [0] && description?.current == 0, "JPEG alone")
        #expect(PTPResponder.deviceInfo(camera).captureFormats == [PTPObjectFormat.exifJPEG.rawValue])
        let command = PTPContainer(kind: .command, code: PTPOperation.setDevicePropValue.rawValue, transactionID: transaction,
                                   parameters: [UInt32(PTPDeviceProperty.compressionSetting.rawValue)])
        #expect(responder.answer(command, hostData: [1], camera: camera).code == .invalidDevicePropValue, "RAW refused")
        transaction += 1
        // Where the camera cannot merge, Enhanced RAW is not offered; RAW and RAW+JPEG are.
        camera.limits?.hasRawFormat = true
        camera.limits?.enhancedRawUnavailable = SensorLimits.stillsSwitchModes
        #expect(Self.values(PTPResponder.describe(.compressionSetting, camera)) == [0, 1, 2])
        #expect(PTPResponder.deviceInfo(camera).captureFormats == [PTPObjectFormat.exifJPEG.rawValue, PTPObjectFormat.dng.rawValue])
    }

    @Test func aHostSetsAPropertyAsTheDialWouldOrIsRefused() {
        var (camera, responder, transaction) = Self.tethered()
        func set(_ code: UInt16, _ bytes: [UInt8]) -> PTPResponseCode {
            defer { transaction += 1 }
            let command = PTPContainer(kind: .command, code: PTPOperation.setDevicePropValue.rawValue, transactionID: transaction,
                                       parameters: [UInt32(code)])
            return responder.answer(command, hostData: bytes, camera: camera).code
        }
        camera.settings.mode = .auto
        #expect(set(0x500F, [0x20, 0x03]) == .accessDenied, "Auto chooses the ISO")
        camera.settings.mode = .pro
        #expect(set(0x500F, [0x20, 0x03]) == .ok && camera.applied == [.iso(.manual(ISOSpeed(800)))], "ISO 800")
        #expect(set(0x500F, [0x21, 0x03]) == .invalidDevicePropValue, "ISO 801 is no stop of the dial")
        #expect(set(0x500F, [0x20]) == .invalidDevicePropFormat, "a byte short")
        #expect(set(0x5007, [0x18, 0x01]) == .accessDenied, "the lens's aperture is read-only")
        #expect(set(0x5001, [50]) == .devicePropNotSupported, "no battery here")
        #expect(set(0x5099, [0, 0]) == .devicePropNotSupported)
        #expect(camera.applied.count == 1, "nothing refused reached the camera")
        camera.isTethered = false
        #expect(set(0x500F, [0x20, 0x03]) == .operationNotSupported, "Files mode has no settings")
    }

    @Test func theHostHearsWhenTheCamerasDialMovesAProperty() {
        var (camera, responder, transaction) = Self.tethered()
        _ = responder.refresh(camera: camera)
        camera.settings.iso = .manual(ISOSpeed(400))
        #expect(responder.refresh(camera: camera).map(\.parameters) == [[0x500F]], "DevicePropChanged(ExposureIndex)")
        #expect(responder.refresh(camera: camera).isEmpty, "once")
        let command = PTPContainer(kind: .command, code: PTPOperation.setDevicePropValue.rawValue, transactionID: transaction,
                                   parameters: [0x500E])
        _ = responder.answer(command, hostData: [1, 0], camera: camera)
        camera.settings.mode = .pro  // what the camera did with the host's change
        #expect(responder.refresh(camera: camera).isEmpty, "the host is not told of its own change")
    }
}
