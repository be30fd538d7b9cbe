/// The kind of a file as PTP names it (ISO 15740 §6.2, PTP 1.1's DNG, MTP's MP4): what a
/// host's list shows and what it decides to download or open by.
public enum PTPObjectFormat: UInt16, Sendable, CaseIterable {
    case undefined = 0x3000
    /// A folder.
    case association = 0x3001
    case exifJPEG = 0x3801
    case tiff = 0x380D
    case dng = 0x3811
    case mp4 = 0xB982

    /// The format of a file named `name` on the card (by its extension).
    public init(fileName name: String) {
        let suffix = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch suffix {
        case "jpg", "jpeg": self = .exifJPEG
        case "dng": self = .dng
        case "tif", "tiff": self = .tiff
        case "mp4", "mov": self = .mp4
        default: self = .undefined
        }
    }

    /// Whether a host shows it as a photo (with a thumbnail and a size).
    public var isImage: Bool { self == .exifJPEG || self == .dng || self == .tiff }
}
