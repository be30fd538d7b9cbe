import ReflexTestSupport
import Foundation
import ReflexSystem
import Testing
@testable import ReflexHardware

/// The headless display's frame.png: a picture that stops changing just after a snapshot
/// was skipped (too soon after the last) is still saved once one is due, while only vblanks
/// come and nothing is flipped (what kept the "No camera" screen from frame.png under load).
/// The snapshots' spacing runs on the test's clock; only the writer thread's PNG is waited for.
@Suite struct HeadlessSnapshotTests {
    @Test func theLastPictureIsSavedEvenWhenNothingMoreIsFlipped() throws {
        let folder = NSTemporaryDirectory() + "reflex-headless-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = ManualClock()
        let display = try HeadlessDisplay(width: 64, height: 40, folder: folder, snapshotInterval: 1, vblanks: .ticked,
                                          clock: .manual(clock))
        func show(_ colour: UInt32) throws {
            try display.prepare { pixels, _ in pixels.update(repeating: colour, count: 64 * 40) }
            try display.queue({ _, _ in }, updatingOverlay: false, overlay: { _, _ in })
            display.tickVblank()
            #expect(display.handleEvents(), "flipped")
        }
        func saved() -> UInt32? { (try? PNGImage.read(folder + "/frame.png")).map { $0.pixels[0] & 0xFF_FFFF } }
        /// Vblanks alone (a 60th of a second apart on the test's clock where `advancing`), until
        /// frame.png shows `colour` (the writer thread's file, however slowly it comes: a
        /// safety net of 60 s).
        func vblanksUntilSaved(_ colour: UInt32, advancing: Bool) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while saved() != colour && Date() < deadline {
                if advancing { clock.advance(by: 1.0 / 60) }
                display.tickVblank()
                _ = display.handleEvents()
                Thread.sleep(forTimeInterval: 0.01)
            }
            return saved() == colour
        }
        try show(0xFF10_2030)  // saved: the first snapshot is due at once
        #expect(vblanksUntilSaved(0x10_2030, advancing: false))
        try show(0xFF40_5060)  // skipped: no time has passed since the first
        #expect(saved() == 0x10_2030, "too soon: the flip itself takes no snapshot")
        // Then only vblanks, as on a screen that no longer changes.
        #expect(vblanksUntilSaved(0x40_5060, advancing: true), "frame.png holds the last picture shown")
    }
}
