import ReflexCore

/// What a computer on the USB cable sends the camera and Reflex reads itself: PTP containers,
/// one transfer after another (each as long as its header says; the rest is the next), through
/// the session's rules to the responder, on a card of three files. A container read is written
/// back byte for byte; a data phase's datasets are read without ever reading past their
/// bytes; the session is open only after an OpenSession it let through; a file's part never
/// reaches past the file.
extension FuzzTarget {
    static let tetheringTargets: [FuzzTarget] = [
        FuzzTarget("ptp-host", "a host's PTP containers in turn (PTPContainer, PTPSession, PTPDataReader)") { bytes in
            var session = PTPSession()
            var responder = PTPResponder()
            _ = responder.refresh(camera: FuzzCard.shared)
            var rest = bytes[...]
            var opened = false
            while rest.count >= PTPContainer.headerLength {
                let declared = Int(PTPContainer.Header(Array(rest.prefix(PTPContainer.headerLength))).length)
                let transfer = Array(rest.prefix(max(declared, PTPContainer.headerLength)))
                rest = rest.dropFirst(transfer.count)
                guard case .success(let container) = PTPContainer.parse(transfer) else { continue }
                guard container.encoded() == transfer else { fatalError("a container did not write back as it was read") }
                switch container.kind {
                case .command:
                    let verdict = session.admit(code: container.code, transactionID: container.transactionID,
                                                parameters: container.parameters)
                    if verdict == .proceed && container.code == PTPOperation.openSession.rawValue { opened = true }
                    if verdict == .proceed && container.code == PTPOperation.closeSession.rawValue { opened = false }
                    guard (session.sessionID != nil) == opened else { fatalError("a session open without OpenSession") }
                    let reply = responder.answer(container, camera: FuzzCard.shared)
                    if case .file(_, let offset, let count) = reply.data, offset + count > FuzzCard.fileBytes {
                        fatalError("bytes \(offset)+\(count) of a file of \(FuzzCard.fileBytes)")
                    }
                case .data:
                    _ = try? PTPDeviceInfo.decode(container.payload)
                    var reader = PTPDataReader(container.payload)
                    _ = try? reader.uint32Array()
                    _ = try? reader.string()
                default: break
                }
            }
        },
    ]
}

/// A card of three files (one a RAW+JPEG pair) the responder lists; nothing on it changes.
final class FuzzCard: PTPCamera, Sendable {
    static let shared = FuzzCard()
    static let fileBytes: UInt64 = 5000
    let manufacturer = "Reflex", model = "Reflex fuzz", version = "0", serialNumber = "0"
    let isTethered = true
    func cardItems() -> [ReviewItem]? {
        [("RFLX0002", ["RFLX0002.DNG", "RFLX0002.JPG"]), ("RFLX0001", ["RFLX0001.JPG"])].map { stem, names in
            ReviewItem(folder: "100REFLX", folderNumber: 100, stem: stem, number: Int(stem.suffix(1))!,
                       files: names.map { ReviewItem.File(name: $0, kind: ReviewItem.Kind(extension: String($0.suffix(3))),
                                                          bytes: Int64(Self.fileBytes), modified: 0, readOnly: $0.hasSuffix("1.JPG")) })
        }
    }
    func storage() -> PTPStorageInfo? {
        PTPStorageInfo(capacityBytes: 1 << 30, freeBytes: 1 << 29, freeImages: 10, description: "", volumeLabel: "")
    }
    func path(onCard relative: String) -> String { relative }
    func thumbnail(onCard relative: String) -> [UInt8]? { nil }
    func delete(onCard relative: String) -> PTPResponseCode { .ok }
    func capture() -> PTPResponseCode { .ok }
    var settings: CameraSettings { CameraSettings() }
    let fNumber: Double? = 2.8
    let batteryPercent: Int? = 80
    func apply(_ change: PTPSettingChange) -> PTPResponseCode { .ok }
}
