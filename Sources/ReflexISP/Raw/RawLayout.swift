/// Where a raw frame's pixels are: size, row pitch and format.
public struct RawLayout: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let bytesPerLine: Int
    public let format: RawFormat

    public init(width: Int, height: Int, bytesPerLine: Int? = nil, format: RawFormat) {
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine ?? format.packing.minimumBytesPerLine(width: width)
        self.format = format
        precondition(self.bytesPerLine >= format.packing.minimumBytesPerLine(width: width), "rows overlap")
    }

    public var byteCount: Int { bytesPerLine * height }
}
