import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The facts the shell asks of the local disk: sizes of downloads and `.part` files, folders.
enum LocalDisk {
    /// The size of the file at `path` (not following a symlink), nil when there is none.
    static func size(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    /// True when `path` is a folder (following symlinks).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// True when something exists at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// `path` with a leading `~` or `~/` made the home folder.
    static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// The home folder: `$HOME` when it is an absolute path (as shells have it), else the account's.
    static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") {
            return home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        }
        return NSHomeDirectory()
    }

    /// `name` inside `folder`.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The process's current folder.
    static var currentFolder: String { FileManager.default.currentDirectoryPath }
}
