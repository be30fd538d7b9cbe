/// Which H.264 encoder a recording uses: the kernel's V4L2 memory-to-memory encoder where the
/// board has one (a Raspberry Pi 0–4's, an i.MX's, a Rockchip's: no CPU spent), otherwise
/// libx264 tuned as rpicam-apps tunes it for low latency (the fastest preset, no frame
/// lookahead, threads over slices), which keeps up with 1080p30 on a third of one core.
public enum VideoEncoderChoice: Sendable, Equatable, CustomStringConvertible {
    /// The M2M encoder at this device node (FFmpeg's wrapper finds it itself; the node is for the log).
    case v4l2MemoryToMemory(device: String)
    case libx264
    /// libx264 for a movie made after the fact (a timelapse): nothing waits for its frames,
    /// so its frame threads and lookahead may use every core for throughput.
    case libx264Batch
    /// libx264 on one thread, for a clip a test or bench reads back (`SkierClip`): the same
    /// pictures make the same bytes on any machine, however busy. (Slice threads under VBV
    /// are not repeatable: two runs of the skier clip differed from its second keyframe on.)
    case libx264Repeatable

    public var codecName: String {
        switch self {
        case .v4l2MemoryToMemory: "h264_v4l2m2m"
        case .libx264, .libx264Batch, .libx264Repeatable: "libx264"
        }
    }

    /// The encoder's private options, as FFmpeg names them.
    public var options: [(String, String)] {
        switch self {
        case .v4l2MemoryToMemory: []
        // Two slice threads: the encoder shares a 2-core board with the preview's loop.
        // (A keyframe asked for is an IDR frame: each fragment starts one a player can begin at.)
        case .libx264: [("preset", "ultrafast"), ("tune", "zerolatency"), ("threads", "2"), ("forced-idr", "1")]
        // (Threads as libx264 chooses them for the machine's cores.)
        case .libx264Batch: [("preset", "ultrafast"), ("forced-idr", "1")]
        case .libx264Repeatable: [("preset", "ultrafast"), ("threads", "1"), ("forced-idr", "1")]
        }
    }

    public var description: String {
        switch self {
        case .v4l2MemoryToMemory(let device): "h264_v4l2m2m (the kernel's encoder at \(device))"
        case .libx264: "libx264 (ultrafast, zerolatency)"
        case .libx264Batch: "libx264 (ultrafast, frame threads)"
        case .libx264Repeatable: "libx264 (ultrafast, one thread)"
        }
    }

    /// The encoders to try, best first: the board's hardware encoder (`memoryToMemory`, the
    /// node of an M2M device that makes H.264, if any), then libx264.
    public static func candidates(memoryToMemory device: String?) -> [VideoEncoderChoice] {
        (device.map { [.v4l2MemoryToMemory(device: $0)] } ?? []) + [.libx264]
    }

    /// The same for a movie made after the fact: libx264 for throughput, not latency.
    public static func batchCandidates(memoryToMemory device: String?) -> [VideoEncoderChoice] {
        (device.map { [.v4l2MemoryToMemory(device: $0)] } ?? []) + [.libx264Batch]
    }
}
