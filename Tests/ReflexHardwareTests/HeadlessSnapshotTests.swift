import Foundation
import Testing
@testable import ReflexHardware

/// The headless display's frame.png: a picture that stops changing just after a snapshot
/// was skipped (too soon after the last) is still saved once one is due, while only vblanks
/// come and nothing is flipped (what kept the "No camera" screen from frame.png under load).
@Suite struct HeadlessSnapshotTests {
    @Test func theLastPictureIsSavedEvenWhenNothingMoreIsFlipped() throws {
        let folder = NSTemporaryDirectory() + "reflex-headless-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let display = try HeadlessDisplay(width: 64, height: 40, folder: folder, snapshotInterval: 0.2, vblanks: .ticked)
        func show(_ colour: UInt32) throws {
            try display.prepare { pixels, _ in pixels.update(repeating: colour, count: 64 * 40) }
            try display.queue({ _, _ in }, updatingOverlay: false, overlay: { _, _ in })
            display.tickVblank()
            #expect(display.handleEvents(), "flipped")
        }
        func saved() -> UInt32? { (try? PNGImage.read(folder + "/frame.png")).map { $0.pixels[0] & 0xFF_FFFF } }
        try show(0xFF10_2030)  // saved at once: the first snapshot is due
        try show(0xFF40_5060)  // skipped: too soon after the first
        // Then only vblanks, as on a screen that no longer changes.
        let deadline = Date().addingTimeInterval(30)
        while saved() != 0x40_5060 && Date() < deadline {
            display.tickVblank()
            _ = display.handleEvents()
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(saved() == 0x40_5060, "frame.png holds the last picture shown")
    }
}
