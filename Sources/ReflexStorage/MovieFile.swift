import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// A movie on the card while it is recorded. It is written as it is made, under a hidden name
/// (`.RFLX0007.MP4.recording`, or on a FAT card its own name with FAT's hidden attribute:
/// a FAT rename is not atomic, see `FATFile`), synced after each fragment, and shown under its
/// DCF name when it ends. A movie a power cut or a kill interrupted is shown at the card's
/// next check, cut to its last whole fragment (`recoverInterrupted`): nothing recorded before
/// the last second is lost, and no half-written file is ever visible.
public final class MovieFile {
    public static let fileExtension = "MP4"
    static let temporarySuffix = ".recording"

    /// Where it ends up, and where it is while recorded.
    public let path: String
    public let writingPath: String
    private let file: FileDescriptor
    private let onFAT: Bool
    private let folder: String
    public private(set) var bytesWritten: Int64 = 0
    private var finished = false

    /// A new movie numbered `number` on `card`.
    public init(on card: PhotoCard, number: PhotoNumber) throws(SystemError) {
        folder = card.folder(for: number)
        try AtomicFile.createFolder(folder)
        path = card.path(for: number, extension: MovieFile.fileExtension)
        if access(path, F_OK) == 0 { throw SystemError("record", path: path, code: EEXIST) }
        onFAT = FATFile.isFAT(folder)
        writingPath = onFAT ? path : folder + "/." + number.fileStem + "." + MovieFile.fileExtension + MovieFile.temporarySuffix
        file = try FileDescriptor(opening: writingPath, O_WRONLY | O_CREAT | O_EXCL, permissions: 0o644)
        do throws(SystemError) {
            if onFAT { try FATFile.setHidden(file.rawValue, true, path: path) }
            // The new entry survives a cut: a movie interrupted in its first second is found.
            try AtomicFile.syncFolder(folder)
        } catch {
            unlink(writingPath)
            throw error
        }
    }

    /// Appends `bytes`; 0, or the system's error number (ENOSPC: the card is full; EIO: it
    /// was pulled). The movie writer's output.
    public func append(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        do throws(SystemError) {
            try file.writeAll(base, count: bytes.count, path: writingPath)
        } catch {
            return error.code
        }
        bytesWritten += Int64(bytes.count)
        return 0
    }

    /// Makes what was appended durable (after each fragment).
    public func sync() throws(SystemError) {
        _ = try systemCall("fdatasync", path: writingPath) { fdatasync(file.rawValue) }
    }

    /// Shows the movie under its name, durably. Its path.
    @discardableResult
    public func finish() throws(SystemError) -> String {
        guard !finished else { return path }
        try file.sync(path: writingPath)
        if onFAT {
            try FATFile.setHidden(file.rawValue, false, path: path)
            try file.sync(path: path)
        } else {
            _ = try systemCall("rename", path: path) { rename(writingPath, path) }
            try AtomicFile.syncFolder(folder)
        }
        finished = true
        return path
    }

    /// After a failure mid-recording (a full card, an error): the movie is cut to its last
    /// whole fragment and shown, as after a power cut; false when it had none (removed).
    public func finishInterrupted() -> Bool {
        guard !finished else { return true }
        finished = true
        return MovieFile.recover(writingPath: writingPath, as: path, onFAT: onFAT) == .kept
    }

    /// Takes an unfinished movie off the card (one that never got a frame).
    public func abandon() {
        guard !finished else { return }
        finished = true
        unlink(writingPath)
        try? AtomicFile.syncFolder(folder)
    }

    // MARK: movies a cut interrupted

    /// Whether `name` in one of our folders is a movie being recorded (ext4's hidden name).
    static func isRecordingName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(temporarySuffix)
            && PhotoNumber.file(named: String(name.dropFirst().dropLast(temporarySuffix.count))) != nil
    }

    /// What became of an interrupted movie at the card's check.
    enum Recovery: Equatable {
        /// Cut to its last whole fragment and shown.
        case kept
        /// Nothing in it played: taken off the card.
        case removed
        /// It could not be read or changed (left as it is, for the next check or a computer).
        case failed
    }

    /// The interrupted movie at `writingPath` (hidden), made playable and shown as
    /// `path`: cut to its last whole fragment; removed when it has none.
    @discardableResult
    static func recover(writingPath: String, as path: String, onFAT: Bool) -> Recovery {
        guard let file = try? FileDescriptor(opening: writingPath, O_RDWR) else { return .failed }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { return .failed }
        let layout = FragmentedMovieLayout(boxes: topLevelBoxes(of: file.rawValue, size: Int64(info.st_size)),
                                           fileSize: Int64(info.st_size))
        guard layout.playableBytes > 0 else {
            unlink(writingPath)
            return .removed
        }
        guard ftruncate(file.rawValue, off_t(layout.playableBytes)) == 0, fsync(file.rawValue) == 0 else { return .failed }
        if onFAT {
            guard (try? FATFile.setHidden(file.rawValue, false, path: path)) != nil, fsync(file.rawValue) == 0 else { return .failed }
            return .kept
        }
        return access(path, F_OK) != 0 && rename(writingPath, path) == 0 ? .kept : .failed
    }

    /// The file's top-level MP4 boxes, read header by header (public for its fuzz target).
    public static func topLevelBoxes(of descriptor: Int32, size: Int64) -> [FragmentedMovieLayout.Box] {
        var boxes: [FragmentedMovieLayout.Box] = []
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: 16)
        while offset + 8 <= size {
            let read = pread(descriptor, &header, 16, off_t(offset))
            guard read >= 8 else { break }
            var boxSize = header[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            // A 64-bit size follows the type where the 32-bit one is 1.
            if boxSize == 1 {
                guard read >= 16 else { break }
                boxSize = header[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            boxes.append(.init(type, size: boxSize))
            // A box said to reach past the end is the last (cut by the power cut, or nonsense).
            guard boxSize >= 8, boxSize <= size - offset else { break }
            offset += boxSize
        }
        return boxes
    }
}
