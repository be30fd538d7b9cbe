import ReflexTestSupport
import Foundation
import Testing

/// The Debian package as a board maker builds it: image-build/package run on the reflex these
/// tests run, the package's fields and files, and its binary, unpacked into another root,
/// finding the fonts and the board installed with it whatever folder it is started from.
@Suite("The Debian package", .tags(.externalTool))
struct PackageTests {
    /// The repository: three folders above this file.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The reflex these tests run (the one ReflexRun starts, beside the test bundle).
    static let testBuildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().path
    /// Built once for the suite, into the build folder (each run replaces it).
    static let package = Result { try buildPackage() }
        .mapError { $0 as? PackageError ?? PackageError(description: "\($0)") }

    static func buildPackage() throws -> String {
        let output = testBuildFolder + "/package-tests"
        try? FileManager.default.removeItem(atPath: output)
        let run = try ProgramRun(["/bin/bash", repository + "/image-build/package", testBuildFolder + "/reflex", output])
        guard run.status == 0, let deb = run.output.split(separator: "\n").last.map(String.init),
              FileManager.default.fileExists(atPath: deb) else {
            throw PackageError(description: "image-build/package failed (\(run.status)):\n\(run.output)\(run.errors)")
        }
        return deb
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

        let listing = try ProgramRun(["dpkg-deb", "--contents", deb]).output
        let entries = listing.split(separator: "\n").map(String.init)
        // "-rw-r--r-- root/root 546 2026-01-01 12:00 ./usr/share/…" (a folder's name ends in "/").
        let paths = Set(entries.compactMap { entry in
            entry.split(separator: " ").last.map { String($0.dropFirst().reversed().drop { $0 == "/" }.reversed()) }
        })
        var expected = ["/usr/bin/reflex", "/lib/systemd/system/reflex.service", "/usr/share/doc/reflex/copyright"]
        let files = FileManager.default
        expected += try files.contentsOfDirectory(atPath: Self.repository + "/Fonts").map { "/usr/share/reflex/fonts/" + $0 }
        let boards = try files.contentsOfDirectory(atPath: Self.repository + "/Board").filter { name in
            var folder: ObjCBool = false
            return name != "common" && name != "examples" && files.fileExists(atPath: Self.repository + "/Board/" + name, isDirectory: &folder)
                && folder.boolValue
        }
        #expect(!boards.isEmpty)
        for board in boards {
            let folder = Self.repository + "/Board/" + board
            expected += (files.subpaths(atPath: folder) ?? []).map { "/usr/share/reflex/boards/\(board)/" + $0 }
        }
        // The examples for board makers are documentation.
        expected += try files.contentsOfDirectory(atPath: Self.repository + "/Board/examples")
            .map { "/usr/share/doc/reflex/board-examples/" + $0 }
        expected += try files.contentsOfDirectory(atPath: Self.repository + "/Board/common")
            .filter { $0.hasSuffix(".rules") }.map { "/lib/udev/rules.d/" + $0 }
        for path in expected {
            #expect(paths.contains(path), "the package holds \(path)")
        }
        #expect(!paths.contains { $0.hasPrefix("/usr/share/reflex/boards/common") })
        #expect(entries.allSatisfy { $0.contains(" root/root ") }, "every file is root's")
        #expect(entries.contains { $0.hasPrefix("-rwxr-xr-x") && $0.hasSuffix(" ./usr/bin/reflex") })

        let information = try ProgramRun(["dpkg-deb", "--info", deb]).output
        for script in ["postinst", "prerm", "postrm", "md5sums"] {
            #expect(information.contains(" \(script)"), "the package has a \(script)\n\(information)")
        }
    }

    /// No $REFLEX_FONTS_DIR, no $REFLEX_BOARD_DIR, another working folder, and no source
    /// checkout's Fonts above it: only the lookup relative to the binary can find them.
    @Test func theUnpackedBinaryFindsItsFontsAndBoardFromAnyFolder() throws {
        let deb = try Self.package.get()
        let scratch = StateFolder()
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let root = scratch.path + "/root"
        #expect(try ProgramRun(["dpkg-deb", "-x", deb, root]).status == 0)
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
