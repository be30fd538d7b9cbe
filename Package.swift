// swift-tools-version: 6.1
// Reflex: the firmware of a handheld camera. docs/architecture.md draws the layout.
import PackageDescription

/// A system-library module for one C library: `Sources/<name>/module.modulemap` + `shim.h`.
func cLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

/// The test targets' own code, unoptimised even in a release build: CI builds the suites with
/// `-c release` so the code they test is the shipped optimised code, and optimising 22k lines
/// of tests themselves cost about 90 s of a 2-core machine's build for no test's benefit.
let testCode: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

/// A test target of unoptimised test code (`testCode`).
func tests(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: exclude, swiftSettings: testCode)
}

let package = Package(
    name: "Reflex",
    products: [
        .executable(name: "reflex", targets: ["reflex"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // C libraries, each wrapped so Swift can reach its macros and variadic calls.
        cLibrary("CDRM", pkgConfig: "libdrm", apt: ["libdrm-dev"]),
        cLibrary("CLibinput", pkgConfig: "libinput", apt: ["libinput-dev", "libudev-dev"]),
        cLibrary("CV4L2", pkgConfig: "libv4l2", apt: ["libv4l-dev"]),
        cLibrary("CCairo", pkgConfig: "cairo-ft", apt: ["libcairo2-dev", "libfreetype-dev"]),
        cLibrary("CExif", pkgConfig: "libexif", apt: ["libexif-dev"]),
        cLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        cLibrary("CTIFF", pkgConfig: "libtiff-4", apt: ["libtiff-dev"]),
        cLibrary("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        cLibrary("CQREncode", pkgConfig: "libqrencode", apt: ["libqrencode-dev"]),
        cLibrary("CFFmpeg", pkgConfig: "libavformat",
                 apt: ["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"]),

        // Linux calls Swift's Glibc module lacks (timerfd, eventfd).
        .target(name: "CLinux"),
        // Motion-JPEG at half size through libjpeg, with a memory manager that reuses its memory.
        .target(name: "CJPEGDecoder", linkerSettings: [.linkedLibrary("jpeg")]),
        // RAUC's D-Bus service (the updater) through libsystemd's sd-bus, whose calls are variadic.
        .target(name: "CRAUCBus", linkerSettings: [.linkedLibrary("systemd")]),
        // Counts heap allocations (replaces malloc in the programs that link it).
        .target(name: "CAllocationCounter"),
        // OpenCV (C++) behind a C surface: the DNN person detector, Lucas-Kanade flow, HOG.
        .target(name: "CVision",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
                linkerSettings: ["opencv_dnn", "opencv_video", "opencv_objdetect", "opencv_imgproc", "opencv_core"]
                    .map { .linkedLibrary($0) }),

        // Pure camera model: no C, no clock, no I/O; geometry of the picture and the panel.
        // (`Double.rounded()` lowers to libm's round/floor, so libm is linked; nothing is imported.)
        .target(name: "ReflexCore", linkerSettings: [.linkedLibrary("m")]),
        // The image pipeline, pure Swift: unpacking, preview ISP, statistics, the exposure controller.
        .target(name: "ReflexISP", dependencies: ["ReflexCore"]),
        // One way to call the system, owned file descriptors, the worker thread, clocks, hand-offs.
        .target(name: "ReflexSystem", dependencies: ["CLinux"]),
        // Files that must survive power loss: atomic writes, the settings file.
        .target(name: "ReflexStorage", dependencies: ["ReflexCore", "ReflexSystem"]),
        // Photo files: DNG through libtiff, JPEG through TurboJPEG with EXIF from libexif; each
        // encoded into memory, so the save queue writes (and can write again) the same bytes.
        // Movies: H.264 through libavcodec in fragmented MP4 through libavformat.
        .target(name: "ReflexFormats", dependencies: ["ReflexCore", "ReflexISP", "CTIFF", "CExif", "CTurboJPEG", "CFFmpeg", "CQREncode"]),
        // The hardware, a folder each: Camera (the V4L2 session, its simulated twin, frame
        // sinks), Display (DRM/KMS and its headless twin), Input (libinput), Probe.
        .target(name: "ReflexHardware",
                dependencies: ["CV4L2", "CDRM", "CLibinput", "CLinux", "CJPEGDecoder", "CCairo", "CALSA", "CRAUCBus", "ReflexSystem", "ReflexISP",
                               "ReflexCore", "ReflexFormats"]),

        // Seeing the subject: the person detector's model and graph, optical flow, over CVision.
        .target(name: "ReflexVision", dependencies: ["ReflexCore", "ReflexISP", "CVision"]),

        // Everything on screen, drawn with Cairo into layers and blended over the picture.
        .target(name: "ReflexUI", dependencies: ["ReflexCore", "ReflexISP", "CCairo"]),

        // The running camera, as a library: the sensor thread, the realtime loop, its painter
        // and picture worker, the settings writer, the control mailbox and the status board.
        .target(name: "ReflexRuntime",
                dependencies: ["ReflexCore", "ReflexISP", "ReflexSystem", "ReflexStorage", "ReflexFormats", "ReflexHardware",
                               "ReflexUI", "ReflexVision", "CAllocationCounter"]),

        // The remote a phone's browser opens: pairing, the page, the card's files and the live
        // view over a WebSocket, on SwiftNIO (its HTTP parser and WebSocket framing, sendfile).
        .target(name: "ReflexRemote",
                dependencies: ["ReflexCore", "ReflexSystem", "ReflexStorage", "ReflexFormats",
                               .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOWebSocket", package: "swift-nio")]),

        // `reflex bench …`: every benchmark, each against a reference in the same run (libv4lconvert,
        // memcpy, TurboJPEG, write+fsync), registered as a subcommand by the executable.
        .target(
            name: "ReflexBench",
            dependencies: [
                "ReflexCore", "ReflexStorage", "ReflexHardware", "ReflexISP", "ReflexUI", "ReflexRuntime", "ReflexSystem", "ReflexRemote",
                "ReflexFormats", "ReflexVision", "CVision", "CAllocationCounter", "CV4L2", "CTurboJPEG",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The executable: commands and wiring only.
        .executableTarget(
            name: "reflex",
            dependencies: [
                "ReflexCore", "ReflexStorage", "ReflexHardware", "ReflexISP", "ReflexUI", "ReflexRuntime", "ReflexSystem",
                "ReflexFormats", "ReflexBench", "ReflexVision", "ReflexRemote", "CAllocationCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        tests("ReflexCoreTests", ["ReflexCore"]),
        tests("ReflexSystemTests", ["ReflexSystem"]),
        tests("ReflexRemoteTests", ["ReflexRemote", "ReflexCore", "ReflexStorage", "ReflexTestSupport"]),
        tests("ReflexISPTests", ["ReflexISP", "ReflexCore", "CAllocationCounter", "CTIFF", "ReflexTestSupport"]),
        tests("ReflexVisionTests", ["ReflexVision", "ReflexCore", "ReflexTestSupport"]),
        tests("ReflexFormatsTests",
              ["ReflexFormats", "ReflexISP", "ReflexCore", "CTurboJPEG", "CFFmpeg", "CExif", "ReflexTestSupport"]),
        tests("ReflexUITests",
              ["ReflexUI", "ReflexCore", "ReflexISP", "ReflexSystem", "ReflexHardware", "ReflexFormats", "CAllocationCounter",
               "ReflexTestSupport"],
              exclude: ["Golden"]),
        tests("ReflexHardwareTests",
              ["ReflexHardware", "ReflexISP", "ReflexCore", "ReflexSystem", "CV4L2", "CTurboJPEG", "CAllocationCounter",
               "ReflexTestSupport"]),
        tests("ReflexRuntimeTests",
              ["ReflexRuntime", "ReflexHardware", "ReflexISP", "ReflexCore", "ReflexSystem", "ReflexUI", "ReflexStorage",
               "ReflexFormats", "ReflexVision", "ReflexBench", "CV4L2", "CTurboJPEG", "ReflexTestSupport"]),
        tests("ReflexStorageTests",
              ["ReflexStorage", "ReflexSystem", "ReflexCore", "settings-writer", "card-eraser", "ReflexTestSupport"]),
        tests("CModuleTests", ["CDRM", "CLibinput", "CV4L2", "CCairo", "CExif", "CTurboJPEG", "CTIFF", "ReflexHardware"]),
        // Runs the built `reflex` binary as a user would (it imports none of it).
        tests("ReflexCommandTests", ["reflex", "ReflexHardware", "ReflexTestSupport"]),
        // What several test targets share and the product does not: a real gpsd (gpsfake replaying
        // the NMEA logs in Tests/Data/nmea), a movie read back as a player does, temporary folders.
        .target(name: "ReflexTestSupport", dependencies: ["ReflexFormats", "ReflexHardware", "ReflexSystem", "CLinux", "ReflexStorage", "CFFmpeg", "CTurboJPEG"], path: "Tests/Support/ReflexTestSupport"),
        // The fuzz targets: every reader of outside bytes, for libFuzzer (image-build/fuzz builds
        // reflex-fuzz with -DREFLEX_FUZZING and links libFuzzer's driver) and, built plainly,
        // for replaying the corpus and the findings kept as regression tests (ReflexFuzzTests).
        .target(name: "CFuzzerDriver", path: "Tests/Fuzz/CFuzzerDriver"),
        .target(name: "ReflexFuzzTargets",
                dependencies: ["ReflexCore", "ReflexISP", "ReflexFormats", "ReflexStorage", "ReflexHardware", "CFuzzerDriver"],
                path: "Tests/Fuzz/ReflexFuzzTargets"),
        .executableTarget(name: "reflex-fuzz", dependencies: ["ReflexFuzzTargets", "CFuzzerDriver"], path: "Tests/Fuzz/reflex-fuzz"),
        tests("ReflexFuzzTests", ["ReflexFuzzTargets", "ReflexFormats"]),
        // A child process for the SIGKILL test: saves settings in a loop until killed.
        .executableTarget(
            name: "settings-writer",
            dependencies: ["ReflexStorage", "ReflexCore"],
            path: "Tests/Fixtures/settings-writer"
        ),
        // A child process for the delete SIGKILL test: deletes a card's items until killed.
        .executableTarget(
            name: "card-eraser",
            dependencies: ["ReflexStorage"],
            path: "Tests/Fixtures/card-eraser"
        ),
    ]
)
