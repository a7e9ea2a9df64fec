import POSIX

/// A local folder as messages show it: absolute (a relative one from the current folder), so that "kept in"
/// says where.
public enum LocalFolderText {
    public static func shown(_ folder: String) -> String {
        folder.hasPrefix("/") ? folder : folder == "." ? LocalDisk.currentFolder : LocalDisk.join(LocalDisk.currentFolder, folder)
    }
}
