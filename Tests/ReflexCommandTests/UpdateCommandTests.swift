import Foundation
import ReflexTestSupport
import Testing

/// `reflex update --check` on bundles made by image-build/bundle and read by the real RAUC:
/// what the camera offers and what it refuses, and why.
@Suite("reflex update", .tags(.externalTool), .serialized)
final class UpdateCommandTests {
    let bundles: UpdateBundles
    var folder: TemporaryFolder { bundles.folder }
    var systemConf: String { folder.file("system.conf") }

    init() throws {
        bundles = try UpdateBundles()
        folder.write("""
            [system]
            compatible=reflex-qemu-x86_64
            bootloader=noop

            [keyring]
            path=\(GoldenImage.repository)/image-build/keys/development.cert.pem
            """, to: "system.conf")
    }

    func bundle(_ version: String, board: String = "qemu-x86_64", signing: (key: String, cert: String)? = nil) throws -> String {
        try bundles.bundle(version, board: board, signing: signing)
    }

    func check(_ bundle: String, _ options: [String] = []) throws -> ReflexRun {
        try ReflexRun(["update", "--check", "--conf", systemConf, "--running-version", "0.2.0"] + options + [bundle])
    }

    @Test func aNewerBundleForThisCameraSignedByItsKeyIsOffered() throws {
        let offered = try check(bundle("0.3.0"))
        #expect(offered.status == 0, "\(offered.errors)")
        #expect(offered.output == "Update Reflex 0.2.0 → 0.3.0? The camera restarts.\n", "\(offered.output)")
    }

    @Test func anOlderBundleIsRefusedUnlessForced() throws {
        let older = try bundle("0.1.9")
        let refused = try check(older)
        #expect(refused.status == 1 && refused.output.isEmpty)
        #expect(refused.errors.contains("Not installed: Reflex 0.1.9 is older than the running 0.2.0."), "\(refused.errors)")
        #expect(refused.errors.contains("--force installs it anyway"))
        let forced = try check(older, ["--force"])
        #expect(forced.status == 0 && forced.output.contains("Update Reflex 0.2.0 → 0.1.9?"), "\(forced.errors)")
    }

    @Test func anotherCamerasBundleIsRefusedEvenForced() throws {
        let refused = try check(bundle("0.3.0", board: "qemu-arm64"), ["--force"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Not installed: the update is for another camera (reflex-qemu-arm64)."), "\(refused.errors)")
    }

    @Test func aBundleSignedByAnotherKeyIsRefused() throws {
        let refused = try check(bundle("0.3.0", signing: bundles.otherKey), ["--force"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Not installed: the update is not signed by this camera's maker."), "\(refused.errors)")
        #expect(refused.errors.contains("signature verification failed"), "\(refused.errors)")
    }

    @Test func aBundleCutShortIsRefusedAsDamaged() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: bundle("0.3.0")))
        let cut = folder.file("cut.raucb")
        try whole.prefix(whole.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let refused = try check(cut)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Not installed: the update file is damaged or incomplete."), "\(refused.errors)")
    }

    /// Without --check the bundle goes to RAUC's service over D-Bus (here one that trusts only
    /// another maker's key): its progress printed as it comes, its refusal said, exit 1, and
    /// the bootloader's record as it was.
    @Test func installingAsksRAUCsServiceAndSaysWhyItFailed() throws {
        let rig = try RAUCRig(keyring: bundles.otherKey.cert)
        let run = try ReflexRun(["update", "--conf", systemConf, "--running-version", "0.2.0", bundle("0.3.0")],
                                environment: rig.sessionEnvironment)
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        #expect(run.output.hasPrefix("Update Reflex 0.2.0 → 0.3.0? The camera restarts.\n"), "\(run.output)")
        #expect(run.output.split(separator: "\n").dropFirst().contains { $0.firstMatch(of: /^\d+% \S/) != nil }, "\(run.output)")
        #expect(run.errors.contains("could not install") && run.errors.contains("signature")
                && run.errors.contains("the running system is unchanged"), "\(run.errors)")
        #expect(try rig.grubenv()["ORDER"] == "A B")
    }

    @Test func aSystemWithoutRAUCsConfigurationSaysItCannotBeUpdated() throws {
        let run = try ReflexRun(["update", "--check", "--conf", folder.file("missing.conf"), folder.file("any.raucb")])
        #expect(run.status == 2)
        #expect(run.errors.contains("this camera's system cannot be updated: no RAUC configuration at"), "\(run.errors)")
    }
}
