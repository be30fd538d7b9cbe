import Foundation
import ReflexHardware
import ReflexTestSupport
import Testing

/// What the camera asks RAUC's real service over D-Bus (RAUCRig: `rauc service` on a bus of
/// the test's own), and what RAUC then writes for the bootloader.
@Suite("RAUC's service over D-Bus", .tags(.externalTool), .serialized)
final class RAUCServiceTests {
    let rig: RAUCRig
    let rauc: RAUCService

    init() throws {
        rig = try RAUCRig()
        rauc = try RAUCService(address: rig.address)
    }

    @Test func itSaysWhichSlotRunsAndWhichBootsNext() throws {
        #expect(try rauc.bootSlot() == "A")
        #expect(try rauc.compatible() == "reflex-qemu-x86_64")
        #expect(try rauc.primary() == "rootfs.0")
        #expect(try rauc.operation() == "idle")
    }

    /// An installed slot is made active: GRUB boots it next. A slot GRUB has tried three
    /// times without it marking itself good is no longer RAUC's primary (the rollback), and
    /// the running slot marks itself good.
    @Test func markingWritesWhatGRUBReadsAndTriesUsedUpMeanRollback() throws {
        #expect(try rauc.mark(.active, "other") == "rootfs.1")
        var env = try rig.grubenv()
        #expect(env["ORDER"] == "B A" && env["B_OK"] == "1" && env["B_TRY"] == "0", "\(env)")
        #expect(try rauc.primary() == "rootfs.1")

        try RAUCRig.run(["grub-editenv", rig.grubenvPath, "set", "B_TRY=3"])
        #expect(try rauc.primary() == "rootfs.0")
        try rauc.mark(.good, "booted")
        try rauc.mark(.bad, "other")
        env = try rig.grubenv()
        #expect(env["A_OK"] == "1" && env["A_TRY"] == "0" && env["B_OK"] == "0", "\(env)")
    }

    /// A bundle signed by another key: RAUC's service refuses it and says why; the slots and
    /// the bootloader's record are as they were.
    @Test func anUntrustedBundleEndsTheInstallationWithRAUCsReason() throws {
        let bundles = try UpdateBundles()
        let bundle = try bundles.bundle("0.9.0", signing: bundles.otherKey)
        let before = try rig.grubenv()
        try rauc.install(bundle)
        var result: Int32?
        let deadline = Date().addingTimeInterval(300)
        while result == nil, Date() < deadline { result = try rauc.waitForCompletion(seconds: 1) }
        #expect(result != nil && result != 0)
        let reason = try rauc.lastError()
        #expect(reason.contains("signature"), "\(reason)")
        #expect(try rig.grubenv() == before)
        #expect(try rauc.primary() == "rootfs.0")
    }
}
