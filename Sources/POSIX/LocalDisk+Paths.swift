#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Paths as a user types them: `~` for the home folder, names joined to folders, the current folder.
extension LocalDisk {
    /// `path` with a leading `~` or `~/` made the home folder.
    public static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// The home folder: `$HOME` when it is an absolute path (as shells have it), else the account's.
    public static var home: String {
        if let value = getenv("HOME"), case let home = String(cString: value), home.hasPrefix("/") {
            return home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        }
        if let account = getpwuid(getuid()), let folder = account.pointee.pw_dir { return String(cString: folder) }
        return "/"
    }

    /// `name` inside `folder`.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The process's current folder ("." when it cannot be read: removed under the process).
    public static var currentFolder: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }

    /// `path` as an absolute path: a relative one from the current folder, so that a message says where.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : path == "." ? currentFolder : join(currentFolder, path)
    }
}
