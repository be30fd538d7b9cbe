import ReflexCore

/// What another program sends the camera: gpsd's JSON reports, cut into lines as they come
/// off the socket, in pieces of any size. (The capture socket's one-line request is split
/// on spaces and read with Int(_:), nothing to fuzz.)
extension FuzzTarget {
    static let streamTargets: [FuzzTarget] = [
        FuzzTarget("gpsd", "gpsd's JSON stream (LineBuffer, GPSDMessage.parse)", longestInput: 16384) { bytes in
            // The first byte says how the socket cut the stream (reads of 1 to 256 bytes).
            guard let cut = bytes.first else { return }
            let piece = Int(cut) + 1
            var lines = LineBuffer(limit: 4096)
            var start = 1
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                let complete = bytes[start..<end].withUnsafeBytes { lines.feed($0) }
                for line in complete { _ = GPSDMessage.parse(line) }
                start = end
            }
        },
    ]
}
