import ReflexCore
import Synchronization
import Testing

/// The camera's answers to a host on the USB cable (issue 55, files and bad hosts): the card
/// as objects with handles that last the card's life, every refusal the standard's code, and
/// the events a host hears of what happened on the camera.
@Suite struct PTPResponderTests {
    /// The camera as the responder sees it: a card whose listing a test changes.
    final class Camera: PTPCamera, @unchecked Sendable {
        let manufacturer = "Reflex", model = "Reflex test board", version = "0.1.0", serialNumber = "0123456789abcdef"
        var isTethered = false
        /// Newest first, as the review catalogue lists them.
        var items: [ReviewItem]? = [PTPResponderTests.item(3, [("RFLX0003.JPG", true)]),
                                    PTPResponderTests.item(2, [("RFLX0002.DNG", false), ("RFLX0002.JPG", false),
                                                               ("RFLX0002.XMP", false)]),
                                    PTPResponderTests.item(1, [("RFLX0001.JPG", false)])]
        var deleted: [String] = []
        var captures = 0
        /// The sensor streaming (nil: every stop of the tables, every format).
        var limits: SensorLimits?
        func cardItems() -> [ReviewItem]? { items }
        func storage() -> PTPStorageInfo? {
            items == nil ? nil : PTPStorageInfo(capacityBytes: 32 << 30, freeBytes: 16 << 30, freeImages: 900,
                                                description: "SD card", volumeLabel: "REFLEX")
        }
        func path(onCard relative: String) -> String { "/media/card/" + relative }
        func thumbnail(onCard relative: String) -> [UInt8]? { relative.hasSuffix(".JPG") ? [0xFF, 0xD8, 0xFF, 0xD9] : nil }
        func delete(onCard relative: String) -> PTPResponseCode {
            deleted.append(relative)
            let name = String(relative.split(separator: "/").last!)
            items = items?.compactMap { item in
                var item = item
                item.files.removeAll { $0.name == name }
                return item.files.contains { $0.kind != .other } ? item : nil
            }
            return .ok
        }
        func capture() -> PTPResponseCode {
            captures += 1
            return .ok
        }
        var settings = CameraSettings()
        var fNumber: Double? = 2.8
        var batteryPercent: Int?
        var applied: [PTPSettingChange] = []
        func apply(_ change: PTPSettingChange) -> PTPResponseCode {
            applied.append(change)
            return .ok
        }
    }

    static func item(_ number: Int, _ files: [(String, Bool)]) -> ReviewItem {
        ReviewItem(folder: "100REFLX", folderNumber: 100, stem: "RFLX000\(number)", number: number,
                   files: files.map { name, readOnly in
                       ReviewItem.File(name: name, kind: ReviewItem.Kind(extension: String(name.suffix(3))),
                                       bytes: Int64(1000 * number), modified: 1_795_943_107, readOnly: readOnly)
                   })
    }

    /// A responder with a session open and the card listed; the next transaction's ID.
    static func opened(_ camera: Camera) -> (PTPResponder, UInt32) {
        var responder = PTPResponder()
        _ = responder.refresh(camera: camera)
        _ = responder.answer(PTPContainer(kind: .command, code: PTPOperation.openSession.rawValue, transactionID: 0, parameters: [1]),
                             camera: camera)
        return (responder, 1)
    }

    static func ask(_ responder: inout PTPResponder, _ transaction: inout UInt32, _ operation: PTPOperation,
                    _ parameters: [UInt32] = [], camera: Camera) -> PTPReply {
        defer { transaction += 1 }
        return responder.answer(PTPContainer(kind: .command, code: operation.rawValue, transactionID: transaction, parameters: parameters),
                                camera: camera)
    }

    static func words(_ reply: PTPReply) throws -> [UInt32] {
        guard case .bytes(let bytes) = reply.data else { return [] }
        var reader = PTPDataReader(bytes)
        return try reader.uint32Array()
    }

    @Test func theCardIsDCIMItsFoldersAndEachPhotoFileWithItsOwnHandle() throws {
        let camera = Camera()
        var (responder, transaction) = Self.opened(camera)
        let all = try Self.words(Self.ask(&responder, &transaction, .getObjectHandles, [PTPResponder.storageID, 0, 0], camera: camera))
        let paths = all.compactMap { responder.objects.object($0)?.path }
        #expect(paths == ["DCIM", "DCIM/100REFLX", "DCIM/100REFLX/RFLX0001.JPG", "DCIM/100REFLX/RFLX0002.DNG",
                          "DCIM/100REFLX/RFLX0002.JPG", "DCIM/100REFLX/RFLX0003.JPG"],
                "a RAW+JPEG pair is two objects; the sidecar stays hidden")
        let root = try Self.words(Self.ask(&responder, &transaction, .getObjectHandles, [0xFFFF_FFFF, 0, PTPObjectTable.root],
                                           camera: camera))
        #expect(root == [all[0]], "the root holds DCIM")
        let folder = try Self.words(Self.ask(&responder, &transaction, .getObjectHandles, [0xFFFF_FFFF, 0, all[1]], camera: camera))
        #expect(folder == Array(all[2...]))
        let raws = try Self.words(Self.ask(&responder, &transaction, .getObjectHandles,
                                           [0xFFFF_FFFF, UInt32(PTPObjectFormat.dng.rawValue), 0], camera: camera))
        #expect(raws == [all[3]])
        #expect(Self.ask(&responder, &transaction, .getNumObjects, [PTPResponder.storageID, 0, 0], camera: camera).parameters == [6])
        #expect(Self.ask(&responder, &transaction, .getObjectHandles, [PTPResponder.storageID, 0, all[2]], camera: camera).code
                == .invalidParentObject, "a file is no folder")
        #expect(Self.ask(&responder, &transaction, .getObjectHandles, [0x0002_0001, 0, 0], camera: camera).code == .invalidStorageID)
    }

    @Test func handlesLastTheCardsLifeAndAreNeverGivenToAnotherFile() {
        let camera = Camera()
        var table = PTPObjectTable()
        _ = table.update(camera.items)
        let first = table.handles(format: 0, parent: 0)!
        var changes = table.update(camera.items)
        #expect(changes == PTPObjectTable.Changes() && table.handles(format: 0, parent: 0) == first, "listed again, the same")
        camera.items!.remove(at: 0)
        camera.items!.insert(Self.item(4, [("RFLX0004.JPG", false)]), at: 0)
        changes = table.update(camera.items)
        #expect(changes.removed.count == 1 && changes.added.count == 1 && !first.contains(changes.added[0]))
        #expect(table.object(changes.added[0])?.path == "DCIM/100REFLX/RFLX0004.JPG")
        #expect(table.update(nil).removed.count == 6 && table.count == 0, "a card pulled takes every object")
    }

    @Test func anObjectsInfoAndItsBytesComeFromTheCardsFile() throws {
        let camera = Camera()
        var (responder, transaction) = Self.opened(camera)
        let all = responder.objects.handles(format: 0, parent: 0)!
        let raw = all[3]
        let info = Self.ask(&responder, &transaction, .getObjectInfo, [raw], camera: camera)
        #expect(info.code == .ok && info.data == .bytes(PTPResponder.info(responder.objects.object(raw)!).encoded()))
        #expect(Self.ask(&responder, &transaction, .getObject, [raw], camera: camera).data
                == .file(path: "/media/card/DCIM/100REFLX/RFLX0002.DNG", offset: 0, count: 2000))
        let part = Self.ask(&responder, &transaction, .getPartialObject, [raw, 1500, 4096], camera: camera)
        #expect(part.data == .file(path: "/media/card/DCIM/100REFLX/RFLX0002.DNG", offset: 1500, count: 500) && part.parameters == [500],
                "a part is cut at the file's end and says how much it sends")
        #expect(Self.ask(&responder, &transaction, .getPartialObject, [raw, 2001, 1], camera: camera).code == .invalidParameter)
        #expect(Self.ask(&responder, &transaction, .getObject, [all[1]], camera: camera).code == .invalidObjectHandle, "a folder")
        #expect(Self.ask(&responder, &transaction, .getObject, [999], camera: camera).code == .invalidObjectHandle)
        #expect(Self.ask(&responder, &transaction, .getThumb, [all[2]], camera: camera).data == .bytes([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(Self.ask(&responder, &transaction, .getThumb, [raw], camera: camera).code == .noThumbnailPresent)
    }

    @Test func aHostDeletesOneUnprotectedFileAndNeverWrites() {
        let camera = Camera()
        var (responder, transaction) = Self.opened(camera)
        let all = responder.objects.handles(format: 0, parent: 0)!
        #expect(Self.ask(&responder, &transaction, .deleteObject, [all[5]], camera: camera).code == .objectWriteProtected)
        #expect(Self.ask(&responder, &transaction, .deleteObject, [all[1]], camera: camera).code == .accessDenied, "a folder")
        #expect(Self.ask(&responder, &transaction, .deleteObject, [0xFFFF_FFFF], camera: camera).code == .parameterNotSupported)
        #expect(camera.deleted.isEmpty, "nothing refused reached the card")
        #expect(Self.ask(&responder, &transaction, .deleteObject, [all[4]], camera: camera).code == .ok)
        #expect(camera.deleted == ["DCIM/100REFLX/RFLX0002.JPG"] && responder.objects.object(all[3]) != nil,
                "the pair's RAW stays")
        #expect(Self.ask(&responder, &transaction, .sendObjectInfo, [PTPResponder.storageID, 0], camera: camera).code == .storeReadOnly)
        #expect(Self.ask(&responder, &transaction, .sendObject, [], camera: camera).code == .storeReadOnly)
    }

    @Test func theHostHearsOfPhotosTakenAndCardsPulled() {
        let camera = Camera()
        var (responder, transaction) = Self.opened(camera)
        let all = responder.objects.handles(format: 0, parent: 0)!
        camera.items!.insert(Self.item(5, [("RFLX0005.JPG", false)]), at: 0)
        // A host deletes one file while the camera has taken another: it hears of the new one only.
        _ = Self.ask(&responder, &transaction, .deleteObject, [all[2]], camera: camera)
        let events = responder.refresh(camera: camera)
        #expect(events.map(\.code) == [PTPEventCode.objectAdded.rawValue])
        #expect(responder.objects.object(events[0].parameters[0])?.name == "RFLX0005.JPG")
        camera.items = nil
        #expect(responder.refresh(camera: camera).map(\.code) == [PTPEventCode.storeRemoved.rawValue])
        #expect(Self.ask(&responder, &transaction, .getStorageInfo, [PTPResponder.storageID], camera: camera).code == .storeNotAvailable)
        #expect(Self.ask(&responder, &transaction, .getObjectHandles, [0xFFFF_FFFF, 0, 0], camera: camera).code == .storeNotAvailable)
        camera.items = [Self.item(1, [("RFLX0001.JPG", false)])]
        #expect(responder.refresh(camera: camera).map(\.code) == [PTPEventCode.storeAdded.rawValue])
    }

    @Test func captureIsTetheredModesAlone() throws {
        let camera = Camera()
        var (responder, transaction) = Self.opened(camera)
        var info = try PTPDeviceInfo.decode(Self.bytes(Self.ask(&responder, &transaction, .getDeviceInfo, camera: camera)))
        #expect(!info.operations.contains(PTPOperation.initiateCapture.rawValue) && info.captureFormats.isEmpty)
        #expect(Self.ask(&responder, &transaction, .initiateCapture, [0, 0], camera: camera).code == .operationNotSupported)
        camera.isTethered = true
        info = try PTPDeviceInfo.decode(Self.bytes(Self.ask(&responder, &transaction, .getDeviceInfo, camera: camera)))
        #expect(info.operations.contains(PTPOperation.initiateCapture.rawValue) && info.model == "Reflex test board")
        #expect(Self.ask(&responder, &transaction, .initiateCapture, [0, 0], camera: camera).code == .ok && camera.captures == 1)
    }

    /// gphoto2's --capture-image-and-download waits for each file's ObjectAdded, then
    /// CaptureComplete with the InitiateCapture's transaction: it follows the photo's last
    /// file, however the saving thread spaces them out, and not a folder made for them.
    @Test func captureCompleteFollowsThePhotosLastFile() throws {
        let camera = Camera()
        camera.isTethered = true
        camera.settings.format = .rawPlusJPEG
        var (responder, transaction) = Self.opened(camera)
        let captureTransaction = transaction
        #expect(Self.ask(&responder, &transaction, .initiateCapture, [0, 0], camera: camera).code == .ok)
        #expect(responder.refresh(camera: camera).isEmpty, "nothing saved yet")
        // The DNG first, in a new folder: no CaptureComplete yet.
        let dng = ReviewItem(folder: "101REFLX", folderNumber: 101, stem: "RFLX0004", number: 4,
                             files: [ReviewItem.File(name: "RFLX0004.DNG", kind: .raw, bytes: 9000, modified: 1_795_943_200,
                                                     readOnly: false)])
        camera.items = [dng] + camera.items!
        let first = responder.refresh(camera: camera)
        #expect(first.map(\.code) == [PTPEventCode.objectAdded.rawValue, PTPEventCode.objectAdded.rawValue],
                "the folder and the DNG: \(first.map(\.code))")
        var pair = dng
        pair.files.append(ReviewItem.File(name: "RFLX0004.JPG", kind: .jpeg, bytes: 3000, modified: 1_795_943_200, readOnly: false))
        camera.items![0] = pair
        let second = responder.refresh(camera: camera)
        #expect(second.map(\.code) == [PTPEventCode.objectAdded.rawValue, PTPEventCode.captureComplete.rawValue])
        #expect(second.last?.parameters == [captureTransaction], "CaptureComplete names the InitiateCapture")
        camera.items = [Self.item(5, [("RFLX0005.JPG", false)])] + camera.items!
        #expect(responder.refresh(camera: camera).map(\.code) == [PTPEventCode.objectAdded.rawValue],
                "a photo taken on the camera afterwards: no CaptureComplete")
    }

    @Test func everyOperationTheDeviceInfoListsIsAnsweredAndNoOther() throws {
        let camera = Camera()
        camera.isTethered = true
        var (responder, transaction) = Self.opened(camera)
        let listed = try PTPDeviceInfo.decode(Self.bytes(Self.ask(&responder, &transaction, .getDeviceInfo, camera: camera))).operations
        for operation in PTPOperation.allCases where operation != .openSession && operation != .closeSession {
            let code = Self.ask(&responder, &transaction, operation, [1, 0, 0], camera: camera).code
            #expect((code != .operationNotSupported) == listed.contains(operation.rawValue) || operation.hostSendsData,
                    "\(operation): \(code)")
        }
    }

    static func bytes(_ reply: PTPReply) -> [UInt8] {
        if case .bytes(let bytes) = reply.data { return bytes }
        return []
    }
}
