/// 8-bit RGB pixels, three bytes a pixel, rows `stride` bytes apart: a rendered photo, a
/// file's preview or its thumbnail.
public struct RGBImage: @unchecked Sendable {
    public let pixels: UnsafePointer<UInt8>
    public let width: Int
    public let height: Int
    public let stride: Int

    public init(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int? = nil) {
        self.pixels = pixels
        (self.width, self.height) = (width, height)
        self.stride = stride ?? width * 3
        precondition(self.stride >= width * 3, "rows overlap")
    }
}
