import Foundation
import ReflexCore

/// A card folder served over PTP as the camera serves its card in Files mode: its DCF
/// folder's files listed as the review catalogue lists them. The bench's card is made by the
/// bench, so nothing on it is deleted, captured or set.
final class BenchCard: PTPCamera, @unchecked Sendable {
    let root: String
    let manufacturer = "Reflex", model = "Reflex bench", version = "bench", serialNumber = "0"
    let isTethered = false
    let settings = CameraSettings()
    let fNumber: Double? = nil, batteryPercent: Int? = nil
    static let folder = "100REFLX"

    init(root: String) { self.root = root }

    func cardItems() -> [ReviewItem]? {
        let folder = root + "/DCIM/" + Self.folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let files = names.sorted().map { name -> (name: String, bytes: Int64, modified: Int64, readOnly: Bool) in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0
            return (name, Int64(size), 0, false)
        }
        return ReviewCatalog.items([ReviewCatalog.Listing(folder: Self.folder, files: files)])
    }

    func storage() -> PTPStorageInfo? {
        PTPStorageInfo(capacityBytes: 1 << 30, freeBytes: 1 << 29, freeImages: 9, description: "bench card", volumeLabel: "BENCH")
    }

    func path(onCard relative: String) -> String { root + "/" + relative }
    func thumbnail(onCard relative: String) -> [UInt8]? { nil }
    func delete(onCard relative: String) -> PTPResponseCode { .accessDenied }
    func capture() -> PTPResponseCode { .operationNotSupported }
    func apply(_ change: PTPSettingChange) -> PTPResponseCode { .accessDenied }
}
