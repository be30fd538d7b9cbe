// reflex-fuzz: the fuzz targets (Tests/Fuzz/ReflexFuzzTargets) as one program.
//
//   reflex-fuzz list                       each target, what it reads, its longest input
//   reflex-fuzz seeds FOLDER               the camera's own output as seeds, FOLDER/<target>/
//   reflex-fuzz run TARGET [ARGS...]       built for fuzzing (image-build/fuzz): libFuzzer
//                                          with ARGS; otherwise ARGS are files or folders,
//                                          each input run once (how a finding is replayed)
import CFuzzerDriver
import Foundation
import ReflexFuzzTargets

nonisolated(unsafe) var chosen: FuzzTarget?

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("reflex-fuzz: " + message + "\n").utf8))
    exit(2)
}

/// Every file named, and every file in a folder named.
func inputs(_ paths: [String]) -> [String] {
    paths.flatMap { path -> [String] in
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else { fail("no file or folder \(path)") }
        guard folder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }.filter { !$0.hasSuffix("/README.md") }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list":
    for target in FuzzTarget.all { print(target.name, target.longestInput, target.summary, separator: "\t") }
case "seeds":
    guard arguments.count == 2 else { fail("seeds FOLDER") }
    for (name, seeds) in try FuzzSeeds.all() {
        let folder = arguments[1] + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for seed in seeds { try Data(seed.bytes).write(to: URL(fileURLWithPath: folder + "/" + seed.name)) }
    }
case "run":
    guard arguments.count >= 2, let target = FuzzTarget.named(arguments[1]) else {
        fail("run TARGET: one of " + FuzzTarget.all.map(\.name).joined(separator: ", "))
    }
    chosen = target
    #if REFLEX_FUZZING
    // libFuzzer reads its own flags and corpus folders from the arguments after the target.
    var driverArguments = [CommandLine.arguments[0]] + arguments.dropFirst(2)
    var count = Int32(driverArguments.count)
    var pointers: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
    let status = pointers.withUnsafeMutableBufferPointer { buffer in
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
        return LLVMFuzzerRunDriver(&count, &argv) { data, size in
            chosen!.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        }
    }
    _ = driverArguments.removeAll()
    exit(status)
    #else
    let files = inputs(Array(arguments.dropFirst(2)))
    for file in files {
        guard let bytes = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
        target.run(Array(bytes))
    }
    print("\(target.name): \(files.count) input(s) run, none crashed")
    #endif
default:
    fail("list | seeds FOLDER | run TARGET [ARGS...]")
}
