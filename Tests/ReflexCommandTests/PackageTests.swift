import ReflexTestSupport
import Foundation
import Testing

/// The Debian packages as a board maker builds them: image-build/package run on the reflex
/// these tests run, reflex's and each board's fields and files, lintian's verdict on them, and
/// the binary, unpacked with a board into another root, finding the fonts (Debian's, through
/// its links) and the board whatever folder it is started from.
@Suite("The Debian package", .tags(.externalTool))
struct PackageTests {
    /// The repository: three folders above this file.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The reflex these tests run (the one ReflexRun starts, beside the test bundle).
    static let testBuildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().path
    /// Built once for the suite, into the build folder (each run replaces it): reflex's .deb
    /// first, then each board's.
    static let packages = Result { try buildPackages() }
        .mapError { $0 as? PackageError ?? PackageError(description: "\($0)") }
    static var package: Result<String, PackageError> { packages.map { $0[0] } }

    static func buildPackages() throws -> [String] {
        let output = testBuildFolder + "/package-tests"
        try? FileManager.default.removeItem(atPath: output)
        let run = try ProgramRun(["/bin/bash", repository + "/image-build/package", testBuildFolder + "/reflex", output])
        let debs = run.output.split(separator: "\n").map(String.init)
        guard run.status == 0, debs.count >= 2, debs.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            throw PackageError(description: "image-build/package failed (\(run.status)):\n\(run.output)\(run.errors)")
        }
        return debs
    }

    /// A package's entries: "-rw-r--r-- root/root 546 2026-01-01 12:00 ./usr/share/…" (a
    /// folder's name ends in "/", a link's is followed by " -> " and its target), by path.
    static func entries(_ deb: String) throws -> [String: String] {
        let listing = try ProgramRun(["dpkg-deb", "--contents", deb]).output
        var entries: [String: String] = [:]
        for entry in listing.split(separator: "\n").map(String.init) {
            let name = entry.components(separatedBy: " ./").dropFirst().joined(separator: " ./")
                .components(separatedBy: " -> ")[0]
            entries["/" + String(name.reversed().drop { $0 == "/" }.reversed())] = entry
        }
        return entries
    }

    @Test func thePackageHoldsTheBinaryFontsBoardsUnitAndItsDependencies() throws {
        let deb = try Self.package.get()
        let version = try ReflexRun(["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let architecture = try ProgramRun(["dpkg", "--print-architecture"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/reflex_\(version)_\(architecture).deb"), "\(deb)")

        let fields = try ProgramRun(["dpkg-deb", "--field", deb, "Package", "Version", "Depends"]).output
        #expect(fields.contains("Package: reflex\n") && fields.contains("Version: \(version)\n"), "\(fields)")
        let depends = fields.split(separator: "\n").first { $0.hasPrefix("Depends: ") }
            .map { $0.dropFirst("Depends: ".count).components(separatedBy: ", ") } ?? []
        // The C libraries reflex links, each by its Debian 12 runtime package (from ldd, not a list).
        for package in ["adduser", "libc6", "libdrm2", "libinput10", "libudev1", "libv4l-0", "libcairo2",
                        "libfreetype6", "libturbojpeg0", "libjpeg62-turbo"] {
            #expect(depends.contains(package), "Depends names \(package): \(depends)")
        }

        for package in ["fonts-inter", "fonts-jetbrains-mono"] {
            #expect(depends.contains(package), "the fonts are Debian's: \(depends)")
        }

        let entries = try Self.entries(deb)
        let paths = Set(entries.keys)
        var expected = ["/usr/bin/reflex", "/lib/systemd/system/reflex.service", "/usr/share/doc/reflex/copyright",
                        "/usr/share/doc/reflex/changelog.gz", "/usr/share/man/man1/reflex.1.gz"]
        let files = FileManager.default
        let fonts = try files.contentsOfDirectory(atPath: Self.repository + "/Fonts").filter { $0.hasSuffix(".otf") || $0.hasSuffix(".ttf") }
        for font in fonts {
            #expect(entries["/usr/share/reflex/fonts/" + font]?.hasPrefix("l") == true, "\(font): a link to Debian's")
        }
        // The examples for board makers are documentation.
        expected += try files.contentsOfDirectory(atPath: Self.repository + "/Board/examples")
            .map { "/usr/share/doc/reflex/board-examples/" + $0 }
        expected += try files.contentsOfDirectory(atPath: Self.repository + "/Board/common")
            .filter { $0.hasSuffix(".rules") }.map { "/lib/udev/rules.d/" + $0 }
        for path in expected {
            #expect(paths.contains(path), "the package holds \(path)")
        }
        #expect(!paths.contains { $0.hasPrefix("/usr/share/reflex/boards/") }, "the boards have packages of their own")
        #expect(entries.values.allSatisfy { $0.contains(" root/root ") }, "every file is root's")
        #expect(entries["/usr/bin/reflex"]?.hasPrefix("-rwxr-xr-x") == true)

        // Each board folder, its own package.
        let boards = BoardFolders.names
        #expect(!boards.isEmpty)
        let boardDebs = try Self.packages.get().dropFirst()
        for board in boards {
            let name = "reflex-board-" + board.replacingOccurrences(of: "_", with: "-")
            guard let boardDeb = boardDebs.first(where: { $0.hasSuffix("/\(name)_\(version)_all.deb") }) else {
                Issue.record("no package for the board \(board): \(boardDebs)")
                continue
            }
            let boardPaths = Set(try Self.entries(boardDeb).keys)
            let folder = Self.repository + "/Board/" + board
            for file in (files.subpaths(atPath: folder) ?? []) where file != "depends" {
                #expect(boardPaths.contains("/usr/share/reflex/boards/\(board)/" + file), "\(name) holds \(file)")
            }
            let fields = try ProgramRun(["dpkg-deb", "--field", boardDeb, "Depends"]).output
            #expect(fields.contains("reflex (= \(version))"), "\(name) depends on this reflex: \(fields)")
        }

        let information = try ProgramRun(["dpkg-deb", "--info", deb]).output
        for script in ["postinst", "prerm", "postrm", "md5sums"] {
            #expect(information.contains(" \(script)"), "the package has a \(script)\n\(information)")
        }
    }

    /// lintian, Debian's own checker, finds nothing to say of either package. (The reflex
    /// these tests package is the test build, which finds the toolchain's Swift runtime by its
    /// RUNPATH; the image's is linked with Swift's standard library, and image-build/build
    /// runs lintian on it without this exception.)
    @Test func lintianFindsNothing() throws {
        let debs = try Self.packages.get()
        let run = try ProgramRun(["lintian", "--tag-display-limit", "0", "--suppress-tags", "custom-library-search-path"] + debs)
        let findings = (run.output + run.errors).split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    }

    /// No $REFLEX_FONTS_DIR, no $REFLEX_BOARD_DIR, another working folder, and no source
    /// checkout's Fonts above it: only the lookup relative to the binary can find them.
    @Test func theUnpackedBinaryFindsItsFontsAndBoardFromAnyFolder() throws {
        let debs = try Self.packages.get()
        let scratch = StateFolder()
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let root = scratch.path + "/root"
        for deb in debs { #expect(try ProgramRun(["dpkg-deb", "-x", deb, root]).status == 0) }
        // The fonts the package depends on: this machine's (image-build/setup-host installs them).
        try FileManager.default.createSymbolicLink(atPath: root + "/usr/share/fonts", withDestinationPath: "/usr/share/fonts")
        // Where a board maker's unpacked tree says which board it is (the image uses /etc/reflex/board).
        try FileManager.default.createSymbolicLink(atPath: root + "/usr/share/reflex/board",
                                                   withDestinationPath: "boards/qemu-x86_64")
        let elsewhere = scratch.path + "/elsewhere", png = scratch.path + "/png", logFile = scratch.path + "/log"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: root + "/usr/bin/reflex")
        process.arguments = ["run", "--sensor", "sim", "--display", "png:" + png,
                             "--state-dir", scratch.path + "/state", "--storage", scratch.path]
        process.currentDirectoryURL = URL(fileURLWithPath: elsewhere)
        process.environment = ProcessInfo.processInfo.environment.filter {
            !["REFLEX_FONTS_DIR", "REFLEX_BOARD_DIR", "REFLEX_STATE_DIR"].contains($0.key)
        }
        // A file, not a pipe: the camera never waits on a full pipe while the test waits on it.
        process.standardError = FileHandle(forWritingAtPath: logFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        // About 3 s of running, longer only while a slow debug build has drawn no frame yet;
        // at once when it says it has no fonts.
        let started = Date()
        func running() -> Bool {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            let drawn = FileManager.default.fileExists(atPath: png + "/frame.png")
            return process.isRunning && !log.contains("no fonts found") && Date().timeIntervalSince(started) < 90
                && (Date().timeIntervalSince(started) < 3 || !drawn)
        }
        while running() { Thread.sleep(forTimeInterval: 0.25) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = try String(contentsOfFile: logFile, encoding: .utf8)

        #expect(process.terminationStatus == 0, "\(log)")
        #expect(log.contains("fonts from \(root)/usr/share/reflex/fonts\n"), "\(log)")
        #expect(!log.contains("no fonts found"), "\(log)")
        #expect(FileManager.default.fileExists(atPath: png + "/frame.png"), "the picture was drawn: \(log)")
        // A machine that has a board configured uses it first; otherwise the board beside the binary.
        let board = FileManager.default.fileExists(atPath: "/etc/reflex/board") ? "/etc/reflex/board"
            : root + "/usr/share/reflex/board"
        #expect(log.contains("board: panel from \(board)/display.conf"), "\(log)")
    }
}

struct PackageError: Error, Sendable, CustomStringConvertible {
    let description: String
}

/// A program other than reflex, run to its end (found on PATH).
