import CLinux

/// The type of the file system holding `path` (statfs's f_type), nil if it cannot be read.
public func fileSystemType(_ path: String) -> Int? {
    let type = reflex_file_system_type(path)
    return type < 0 ? nil : type
}
