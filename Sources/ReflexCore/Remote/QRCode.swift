/// A QR code's modules, row by row, dark true: what the camera's screen draws for a phone's
/// camera to read. (Made by libqrencode off the realtime path; drawn by the painter.)
public struct QRCode: Sendable, Equatable {
    /// Modules a side.
    public let size: Int
    public let modules: [Bool]

    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size)
        (self.size, self.modules) = (size, modules)
    }

    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// Modules of light border a reader needs round the code.
    public static let quietZone = 4
}
