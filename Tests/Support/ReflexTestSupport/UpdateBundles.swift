import Foundation

/// Update bundles for tests, made as a release is: a small root file system signed into a
/// RAUC bundle by image-build/bundle, with the development key or another maker's.
public final class UpdateBundles {
    public let folder = TemporaryFolder()

    public init() throws {
        // A small root with something in it that does not compress to nothing (RAUC refuses a
        // payload of a single block).
        try FileManager.default.createDirectory(atPath: folder.file("root/etc"), withIntermediateDirectories: true)
        try folder.write((0..<65_536).map { _ in UInt8.random(in: 0...255) }, to: "root/etc/noise")
        try RAUCRig.run(["mkfs.ext4", "-q", "-F", "-d", folder.file("root"), folder.file("rootfs.ext4"), "4M"])
    }

    /// A key pair of someone else's, made once.
    public lazy var otherKey: (key: String, cert: String) = {
        let pair = (folder.file("other.key.pem"), folder.file("other.cert.pem"))
        try? RAUCRig.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", pair.0, "-out", pair.1,
                          "-days", "2", "-subj", "/O=Someone else/CN=their key"])
        return pair
    }()

    /// A bundle of the small root for `board` at `version`, signed with `signing` (the
    /// development pair when nil): its path.
    public func bundle(_ version: String, board: String = "qemu-x86_64", signing: (key: String, cert: String)? = nil) throws -> String {
        let output = folder.file("reflex-\(board)-\(version)\(signing == nil ? "" : "-other").raucb")
        var arguments = [GoldenImage.repository + "/image-build/bundle", "--rootfs", folder.file("rootfs.ext4"),
                         "--version", version, "--board", board, "--output", output]
        if let signing { arguments += ["--key", signing.key, "--cert", signing.cert] }
        let run = try ProgramRun(arguments)
        guard run.status == 0, run.output.trimmingCharacters(in: .whitespacesAndNewlines) == output else {
            throw RAUCRig.RigProblem(description: "image-build/bundle said \(run.output)\(run.errors)")
        }
        return output
    }
}
