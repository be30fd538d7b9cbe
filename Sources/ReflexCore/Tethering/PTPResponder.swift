/// The camera's side of PTP, one command at a time (the transport reads the containers and
/// sends the replies): the session's rules, the card as objects with stable handles, and
/// each operation Reflex supports answered from the running camera (`PTPCamera`). A host's
/// bad request gets the standard's response code and changes nothing.
public struct PTPResponder: Sendable {
    /// The card: the first physical store's first logical one.
    public static let storageID: UInt32 = 0x0001_0001
    /// GetObjectHandles's and GetNumObjects's "every storage".
    static let anyStorage: UInt32 = 0xFFFF_FFFF

    public private(set) var session = PTPSession()
    public private(set) var objects = PTPObjectTable()
    private var hadCard = false
    /// Events found while answering (a photo taken while a host deleted another), sent at the
    /// next `refresh`.
    private var pending: [PTPContainer] = []
    /// The properties' values the host last heard of (DevicePropChanged when one moves).
    private var reportedValues: [PTPDeviceProperty: Int64] = [:]
    /// The host's InitiateCapture whose files are not all on the card yet: CaptureComplete,
    /// with its transaction's ID, follows the last one's ObjectAdded.
    private var awaitedCapture: AwaitedCapture?
    struct AwaitedCapture {
        let transactionID: UInt32
        /// The photo's files in the format it was taken in (a RAW+JPEG pair is two).
        var filesToCome: Int
    }

    public init() {}

    /// The DeviceInfo dataset: what this camera really answers in its mode.
    public static func deviceInfo(_ camera: PTPCamera) -> PTPDeviceInfo {
        let files: [PTPOperation] = [.getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
                                     .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .getPartialObject,
                                     .getObjectPropsSupported, .getObjectPropDesc, .getObjectPropValue, .getObjectPropList]
        let tethered: [PTPOperation] = [.initiateCapture, .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue]
        let operations = files + (camera.isTethered ? tethered : [])
        var events: [PTPEventCode] = [.objectAdded, .objectRemoved, .storeAdded, .storeRemoved, .storageInfoChanged]
        if camera.isTethered { events += [.captureComplete, .devicePropChanged] }
        let images: [PTPObjectFormat] = [.exifJPEG, .dng, .mp4, .association]
        let properties = camera.isTethered ? properties(camera).map(\.rawValue) : []
        return PTPDeviceInfo(operations: operations.map(\.rawValue), events: events.map(\.rawValue), properties: properties,
                             captureFormats: camera.isTethered ? captureFormats(camera).map(\.rawValue) : [],
                             imageFormats: images.map(\.rawValue), manufacturer: camera.manufacturer, model: camera.model,
                             deviceVersion: camera.version, serialNumber: camera.serialNumber)
    }

    /// The files a capture can make: DNG only where the sensor has a RAW format.
    static func captureFormats(_ camera: PTPCamera) -> [PTPObjectFormat] {
        camera.limits?.hasRawFormat == false ? [.exifJPEG] : [.exifJPEG, .dng]
    }

    static func properties(_ camera: PTPCamera) -> [PTPDeviceProperty] {
        PTPPropertyMap.supported(fNumber: camera.fNumber, batteryPercent: camera.batteryPercent)
    }

    static func describe(_ property: PTPDeviceProperty, _ camera: PTPCamera) -> PTPPropertyDescription? {
        PTPPropertyMap.describe(property, settings: camera.settings, fNumber: camera.fNumber, batteryPercent: camera.batteryPercent,
                                limits: camera.limits)
    }

    /// The reply to `command`, with the data phase the host sent after it (`hostData`, for
    /// the operations that have one). The transport calls `refresh` before each command, so
    /// the objects are the card's as now.
    public mutating func answer(_ command: PTPContainer, hostData: [UInt8] = [], camera: PTPCamera) -> PTPReply {
        let parameters = command.parameters
        if case .refuse(let code, let said) = session.admit(code: command.code, transactionID: command.transactionID,
                                                            parameters: parameters) {
            return .answering(code, parameters: said)
        }
        func parameter(_ index: Int, _ absent: UInt32 = 0) -> UInt32 { index < parameters.count ? parameters[index] : absent }
        switch PTPOperation(rawValue: command.code) {
        case .getDeviceInfo?:
            return PTPReply(data: .bytes(Self.deviceInfo(camera).encoded()))
        case .openSession?, .closeSession?:
            return PTPReply()
        case .getStorageIDs?:
            var writer = PTPDataWriter()
            writer.append(array: camera.storage() == nil ? [] : [Self.storageID])
            return PTPReply(data: .bytes(writer.bytes))
        case .getStorageInfo?:
            guard parameter(0) == Self.storageID else { return .answering(.invalidStorageID) }
            guard let storage = camera.storage() else { return .answering(.storeNotAvailable) }
            return PTPReply(data: .bytes(storage.encoded()))
        case .getNumObjects?, .getObjectHandles?:
            return listing(command.code == PTPOperation.getNumObjects.rawValue, storage: parameter(0, Self.anyStorage),
                           format: parameter(1), parent: parameter(2), camera: camera)
        case .getObjectInfo?:
            guard let object = objects.object(parameter(0)) else { return .answering(.invalidObjectHandle) }
            return PTPReply(data: .bytes(Self.info(object).encoded()))
        case .getObject?:
            guard let object = objects.object(parameter(0)), let file = object.file else { return .answering(.invalidObjectHandle) }
            return PTPReply(data: .file(path: camera.path(onCard: object.path), offset: 0, count: UInt64(max(0, file.bytes))))
        case .getPartialObject?:
            guard let object = objects.object(parameter(0)), let file = object.file else { return .answering(.invalidObjectHandle) }
            let size = UInt64(max(0, file.bytes)), offset = UInt64(parameter(1))
            guard offset <= size else { return .answering(.invalidParameter) }
            let count = min(UInt64(parameter(2)), size - offset)
            return PTPReply(data: .file(path: camera.path(onCard: object.path), offset: offset, count: count),
                            parameters: [UInt32(count)])
        case .getThumb?:
            guard let object = objects.object(parameter(0)), object.file != nil else { return .answering(.invalidObjectHandle) }
            guard let thumbnail = camera.thumbnail(onCard: object.path) else { return .answering(.noThumbnailPresent) }
            return PTPReply(data: .bytes(thumbnail))
        case .deleteObject?:
            return delete(parameter(0), camera: camera)
        case .sendObjectInfo?, .sendObject?:
            // The card is the camera's: a host reads and deletes, never writes.
            return .answering(.storeReadOnly)
        case .initiateCapture?:
            guard camera.isTethered else { return .answering(.operationNotSupported) }
            let format = camera.settings.format
            let code = camera.capture()
            // (A capture asked before the last one's files came replaces it: one is awaited.)
            if code == .ok {
                awaitedCapture = AwaitedCapture(transactionID: command.transactionID,
                                                filesToCome: (format.savesRaw ? 1 : 0) + (format.savesJPEG ? 1 : 0))
            }
            return .answering(code)
        case .getDevicePropDesc?, .getDevicePropValue?:
            guard camera.isTethered else { return .answering(.operationNotSupported) }
            guard let property = PTPDeviceProperty(rawValue: UInt16(truncatingIfNeeded: parameter(0))),
                  parameter(0) <= UInt32(UInt16.max), let description = Self.describe(property, camera) else {
                return .answering(.devicePropNotSupported)
            }
            reportedValues[property] = description.current
            let bytes = command.code == PTPOperation.getDevicePropDesc.rawValue ? description.encoded() : description.encodedValue()
            return PTPReply(data: .bytes(bytes))
        case .setDevicePropValue?:
            guard camera.isTethered else { return .answering(.operationNotSupported) }
            return setProperty(parameter(0), hostData, camera: camera)
        case .getObjectPropsSupported?:
            guard PTPObjectFormat(rawValue: UInt16(truncatingIfNeeded: parameter(0))) != nil, parameter(0) <= UInt32(UInt16.max) else {
                return .answering(.invalidObjectFormatCode)
            }
            var writer = PTPDataWriter()
            writer.append(array: MTPObjectProperty.allCases.map(\.rawValue))
            return PTPReply(data: .bytes(writer.bytes))
        case .getObjectPropDesc?:
            guard parameter(0) <= UInt32(UInt16.max), let property = MTPObjectProperty(rawValue: UInt16(parameter(0))) else {
                return .answering(.objectPropNotSupported)
            }
            return PTPReply(data: .bytes(property.description()))
        case .getObjectPropValue?:
            guard let object = objects.object(parameter(0)) else { return .answering(.invalidObjectHandle) }
            guard parameter(1) <= UInt32(UInt16.max), let property = MTPObjectProperty(rawValue: UInt16(parameter(1))) else {
                return .answering(.objectPropNotSupported)
            }
            return PTPReply(data: .bytes(property.value(of: object, storageID: Self.storageID)))
        case .getObjectPropList?:
            switch MTPObjectPropList.answer(parameters, objects: objects, storageID: Self.storageID) {
            case .success(let list): return PTPReply(data: .bytes(list))
            case .failure(let code): return .answering(code)
            }
        case nil:
            // (Not yet the camera's: the DeviceInfo does not list them.)
            return .answering(.operationNotSupported)
        }
    }

    /// The card as listed now, and the events a host should hear of what changed on the
    /// camera's side (a photo taken, a file deleted on the camera, a card pulled or put in).
    public mutating func refresh(camera: PTPCamera) -> [PTPContainer] {
        let items = camera.cardItems()
        let changes = objects.update(items)
        var events = pending
        pending = []
        let hasCard = items != nil
        if hadCard && !hasCard { events.append(Self.event(.storeRemoved, Self.storageID)) }
        if !hadCard && hasCard { events.append(Self.event(.storeAdded, Self.storageID)) }
        if hadCard && hasCard { events += noteAdded(Self.events(changes)) }
        hadCard = hasCard
        if camera.isTethered {
            for property in Self.properties(camera) {
                guard let now = Self.describe(property, camera)?.current else { continue }
                if let said = reportedValues[property], said != now {
                    events.append(Self.event(.devicePropChanged, UInt32(property.rawValue)))
                }
                reportedValues[property] = now
            }
        }
        return events
    }

    static func event(_ code: PTPEventCode, _ parameter: UInt32) -> PTPContainer {
        PTPContainer(kind: .event, code: code.rawValue, transactionID: 0, parameters: [parameter])
    }

    static func events(_ changes: PTPObjectTable.Changes) -> [PTPContainer] {
        changes.removed.map { event(.objectRemoved, $0) } + changes.added.map { event(.objectAdded, $0) }
    }

    /// `events` with CaptureComplete after the ObjectAdded of the awaited capture's last file
    /// (a new folder's is no file of it).
    private mutating func noteAdded(_ events: [PTPContainer]) -> [PTPContainer] {
        guard var awaited = awaitedCapture else { return events }
        var noted: [PTPContainer] = []
        for event in events {
            noted.append(event)
            guard event.code == PTPEventCode.objectAdded.rawValue, awaited.filesToCome > 0,
                  objects.object(event.parameters[0])?.isFolder == false else { continue }
            awaited.filesToCome -= 1
            if awaited.filesToCome == 0 { noted.append(Self.event(.captureComplete, awaited.transactionID)) }
        }
        awaitedCapture = awaited.filesToCome > 0 ? awaited : nil
        return noted
    }

    /// The host went away or reset the device: its session ends (the handles stay the card's).
    public mutating func hostLeft() { session.end() }

    private mutating func listing(_ counting: Bool, storage: UInt32, format: UInt32, parent: UInt32, camera: PTPCamera) -> PTPReply {
        guard storage == Self.anyStorage || storage == Self.storageID else { return .answering(.invalidStorageID) }
        guard format <= UInt32(UInt16.max) else { return .answering(.invalidCodeFormat) }
        guard hadCard else { return .answering(.storeNotAvailable) }
        guard let handles = objects.handles(format: UInt16(format), parent: parent) else { return .answering(.invalidParentObject) }
        if counting { return PTPReply(parameters: [UInt32(handles.count)]) }
        var writer = PTPDataWriter()
        writer.append(array: handles)
        return PTPReply(data: .bytes(writer.bytes))
    }

    private mutating func setProperty(_ code: UInt32, _ bytes: [UInt8], camera: PTPCamera) -> PTPReply {
        guard code <= UInt32(UInt16.max), let property = PTPDeviceProperty(rawValue: UInt16(code)),
              let description = Self.describe(property, camera) else { return .answering(.devicePropNotSupported) }
        guard description.settable else { return .answering(.accessDenied) }
        guard let value = description.type.read(bytes) else { return .answering(.invalidDevicePropFormat) }
        guard description.allows(value), let change = PTPPropertyMap.change(property, value: value, settings: camera.settings) else {
            return .answering(.invalidDevicePropValue)
        }
        let code = camera.apply(change)
        // The host knows what it set: no DevicePropChanged for it.
        if code == .ok { reportedValues[property] = value }
        return .answering(code)
    }

    private mutating func delete(_ handle: UInt32, camera: PTPCamera) -> PTPReply {
        // (Everything at once, 0xFFFFFFFF, is a card's format: that is the camera's menu's to do.)
        guard handle != 0xFFFF_FFFF else { return .answering(.parameterNotSupported) }
        guard let object = objects.object(handle) else { return .answering(.invalidObjectHandle) }
        guard !object.isFolder else { return .answering(.accessDenied) }
        if object.file?.readOnly == true { return .answering(.objectWriteProtected) }
        let code = camera.delete(onCard: object.path)
        // The host knows what it deleted: the table follows, telling it only of the rest.
        var changes = objects.update(camera.cardItems())
        changes.removed.removeAll { $0 == handle }
        pending += noteAdded(Self.events(changes))
        return .answering(code)
    }

    /// The ObjectInfo dataset of `object`.
    public static func info(_ object: PTPObjectTable.Object) -> PTPObjectInfo {
        let date = object.file.map { PTPObjectInfo.dateText(CivilDate(secondsSince1970: $0.modified)) } ?? ""
        return PTPObjectInfo(storageID: storageID, format: object.format, isProtected: object.file?.readOnly ?? false,
                             size: UInt64(max(0, object.file?.bytes ?? 0)), parent: object.parent, fileName: object.name,
                             captureDate: date, modificationDate: date)
    }
}
