import ReflexCore

/// The last photo's small picture, as the screen shows it: RGB pixels (from the file's own
/// preview) and its number.
public struct PhotoThumbnail: Sendable, Equatable {
    public var number: PhotoNumber
    public var rgb: [UInt8]
    public var width: Int
    public var height: Int

    public init(number: PhotoNumber, rgb: [UInt8], width: Int, height: Int) {
        precondition(rgb.count >= width * height * 3, "three bytes a pixel")
        (self.number, self.rgb, self.width, self.height) = (number, rgb, width, height)
    }

    public static func == (a: PhotoThumbnail, b: PhotoThumbnail) -> Bool {
        // The number names the photo: its pixels need not be compared every frame.
        a.number == b.number && a.width == b.width && a.height == b.height
    }
}
