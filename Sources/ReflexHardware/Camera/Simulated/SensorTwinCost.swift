import Synchronization

/// What the simulated sensors of this process have cost: the simulator's share, which a
/// benchmark shows apart from the camera's (on a board the sensor's frames cost the CPUs
/// nothing and its buffers are the driver's). Summed over every simulated camera.
public enum SensorTwinCost {
    /// CPU spent making frames (drawing, copying a reel's, reading footage), in nanoseconds.
    public static let makingNanoseconds = Atomic<Int>(0)
    /// Frames drawn (each frame of the drawing twin; a reel's the first time each is shown).
    public static let framesDrawn = Atomic<Int>(0)
    /// Frames copied from a reel drawn before.
    public static let framesCopied = Atomic<Int>(0)
    /// Bytes the reels hold now.
    public static let reelBytes = Atomic<Int>(0)
}
