import Foundation
import ReflexTestSupport
import Testing

/// `reflex update --check` on bundles made by image-build/bundle and read by the real RAUC:
/// what the camera offers and what it refuses, and why.
@Suite("reflex update", .tags(.externalTool), .serialized)
final class UpdateCommandTests {
    let folder = TemporaryFolder()
    let repository = GoldenImage.repository
    var systemConf: String { folder.file("system.conf") }

    init() throws {
        // A small root file system with something in it that does not compress to nothing.
        try FileManager.default.createDirectory(atPath: folder.file("root/etc"), withIntermediateDirectories: true)
        try folder.write((0..<65_536).map { _ in UInt8.random(in: 0...255) }, to: "root/etc/noise")
        try run(["mkfs.ext4", "-q", "-F", "-d", folder.file("root"), folder.file("rootfs.ext4"), "4M"])
        folder.write("""
            [system]
            compatible=reflex-qemu-x86_64
            bootloader=noop

            [keyring]
            path=\(repository)/image-build/keys/development.cert.pem
            """, to: "system.conf")
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let run = try ProgramRun(arguments)
        try #require(run.status == 0, "\(arguments.joined(separator: " ")): \(run.errors)")
        return run.output
    }

    /// A bundle of the small root made by image-build/bundle; its path.
    func bundle(_ version: String, board: String = "qemu-x86_64", signing: (key: String, cert: String)? = nil) throws -> String {
        let output = folder.file("reflex-\(board)-\(version)\(signing == nil ? "" : "-other").raucb")
        var arguments = [repository + "/image-build/bundle", "--rootfs", folder.file("rootfs.ext4"), "--version", version,
                         "--board", board, "--output", output]
        if let signing { arguments += ["--key", signing.key, "--cert", signing.cert] }
        let printed = try run(arguments)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == output)
        return output
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
        try run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.file("other.key.pem"),
                 "-out", folder.file("other.cert.pem"), "-days", "2", "-subj", "/O=Someone else/CN=their key"])
        let refused = try check(bundle("0.3.0", signing: (folder.file("other.key.pem"), folder.file("other.cert.pem"))), ["--force"])
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

    @Test func aSystemWithoutRAUCsConfigurationSaysItCannotBeUpdated() throws {
        let run = try ReflexRun(["update", "--check", "--conf", folder.file("missing.conf"), folder.file("any.raucb")])
        #expect(run.status == 2)
        #expect(run.errors.contains("this camera's system cannot be updated: no RAUC configuration at"), "\(run.errors)")
    }
}
