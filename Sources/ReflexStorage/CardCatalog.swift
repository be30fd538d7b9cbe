import ReflexCore
import ReflexSystem
#if canImport(Glibc)
import Glibc
#endif

/// What review shows of the card mounted at `root`: its DCIM folders read (`ReviewCatalog`),
/// less what a save or a power cut left unfinished (hidden or temporary files, and on FAT our
/// still-hidden or empty ones: `FATFile.isLeftover`), newest first.
public enum CardCatalog {
    public static func items(onCardAt root: String) -> [ReviewItem] {
        let dcim = PhotoCard(root: root).dcim
        let listings = namesInFolder(dcim).sorted().compactMap { folder -> ReviewCatalog.Listing? in
            guard DCFName.folderNumber(folder) != nil else { return nil }
            let path = dcim + "/" + folder
            let onFAT = FATFile.isFAT(path)
            let files = namesInFolder(path).compactMap { name -> (name: String, bytes: Int64, modified: Int64, readOnly: Bool)? in
                guard !name.hasPrefix("."), DCFName.file(name) != nil else { return nil }
                var info = stat()
                guard stat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
                if onFAT, FATFile.isLeftover(path + "/" + name) == true { return nil }
                return (name, Int64(info.st_size), Int64(info.st_mtim.tv_sec), info.st_mode & 0o222 == 0)
            }
            return ReviewCatalog.Listing(folder: folder, files: files)
        }
        return ReviewCatalog.items(listings)
    }
}
