import ReflexCore
import ReflexISP

/// Where frames are shown: a DRM/KMS panel, or the headless display (PNG files) on hosts
/// without one. The realtime loop polls `descriptor`, calls `handleEvents()` when it is
/// readable, and presents one frame per vblank at most.
public protocol DisplayOutput: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Readable when a vblank passed or a flip completed.
    var descriptor: Int32 { get }
    /// A frame was presented and is not on screen yet: the next must wait.
    var flipPending: Bool { get }
    /// Frames that reached the screen.
    var flips: Int { get }
    /// Vblanks that passed between a frame being queued and its flip beyond the one it was
    /// queued for: deadlines missed (nil when the driver has no vblank counter).
    var missedVblanks: Int? { get }
    /// Vblanks from the first completed flip to the last (nil without a vblank counter).
    var vblanksSpanned: Int? { get }
    /// Seconds between vblanks where flips are paced by them (a panel, vkms, the headless
    /// timer), so a frame can be made late in the interval; nil where a flip completes when
    /// the driver is done with it (virtio-gpu), with no vblank to aim at.
    var vblankInterval: Double? { get }
    /// How the upright picture is turned onto the panel (touches are turned back).
    var rotation: PanelRotation { get }
    /// The panel's density (the board's, else from the size the kernel reports), nil when
    /// neither says.
    var density: PanelDensity? { get }
    /// Where `density` came from, for the log ("the panel's 320x200 mm").
    var densityOrigin: String { get }
    /// One line for the log: what the display is.
    var summary: String { get }
    /// Reads the display's events; returns true when the pending flip completed.
    func handleEvents() -> Bool
    /// Gives up on a flip whose completion never came (the panel blanked, DRM master lost),
    /// so the next frame can be tried.
    func abandonFlip()
    /// The interface has a plane of its own (ARGB8888, premultiplied), composited by the
    /// hardware over the picture.
    var hasOverlay: Bool { get }
    /// Draws the picture of the next frame into the back buffer (pixels, stride in pixels)
    /// without queuing it: what shows input is laid over it by `queue`, as late as it can be.
    /// Returns false, drawing nothing, while a flip is pending. Called again before `queue`,
    /// it draws the picture again.
    @discardableResult
    func prepare(_ draw: (UnsafeMutablePointer<UInt32>, Int) throws(DisplayError) -> Void) throws(DisplayError) -> Bool
    /// Lays `finish` over the prepared picture (the same buffer) and, when `updatingOverlay`
    /// and there is an overlay plane, draws the interface into the overlay's back buffer
    /// (otherwise the overlay keeps what it shows); queues both for the next vblank. Returns
    /// false, queuing nothing, when no picture is prepared. (Plain closures and a flag, not
    /// an optional closure: an optional closure escapes, and its context would be allocated
    /// every frame.)
    @discardableResult
    func queue(_ finish: (UnsafeMutablePointer<UInt32>, Int) -> Void,
               updatingOverlay: Bool, overlay: (UnsafeMutablePointer<UInt32>, Int) -> Void) throws(DisplayError) -> Bool
}
