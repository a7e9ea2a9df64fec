import CMediaShellShim
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The calls the program makes on local files, in one place for every module (downloads, imports, ledgers):
/// EINTR retried, symlinks not followed where a device-named file is written, and every failure a
/// `SystemError` naming the call, the path and the errno, which each module wraps in its own error.
/// These are the questions that cannot fail (an answer of nil or false is the answer).
public enum LocalDisk {
    /// Size of whatever is at `path` (symlinks not followed), nil when nothing is.
    public static func size(_ path: String) -> UInt64? {
        lstatus(path).map { UInt64($0.st_size) }
    }

    /// Size of a regular file (symlinks not followed); nil for anything else (absent, a folder, a symlink).
    public static func regularFileSize(_ path: String) -> UInt64? {
        guard let info = lstatus(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    /// Size of an open file, 0 when it cannot be read.
    public static func size(_ fd: Int32) -> UInt64 {
        var info = stat()
        return fstat(fd, &info) == 0 ? UInt64(info.st_size) : 0
    }

    public static func exists(_ path: String) -> Bool { lstatus(path) != nil }

    /// True for a folder itself, not a symlink to one (symlinks not followed).
    public static func isFolderItself(_ path: String) -> Bool {
        guard let info = lstatus(path) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// What tells one version of a file from another without reading it: its device, inode, size, and
    /// modification and change times (symlinks not followed); nil when nothing is there. A file replaced
    /// by a rename, or written, has another.
    public struct Version: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: timespec
        let changed: timespec

        public static func == (a: Version, b: Version) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    public static func version(of path: String) -> Version? {
        lstatus(path).map {
            Version(
                device: UInt64($0.st_dev), inode: UInt64($0.st_ino), size: Int64($0.st_size), modified: $0.st_mtim,
                changed: $0.st_ctim)
        }
    }

    /// True for a folder, or a symlink to one.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Modification time in seconds since 1970 (symlinks not followed), nil when nothing is there.
    public static func modificationTime(_ path: String) -> Double? {
        lstatus(path).map { Double($0.st_mtim.tv_sec) + Double($0.st_mtim.tv_nsec) / 1e9 }
    }

    /// Bytes free for an unprivileged writer on the filesystem holding `path` (or its nearest existing
    /// ancestor), nil when that cannot be read.
    public static func freeBytes(near path: String) -> UInt64? {
        var probe = path
        while !exists(probe) {
            let parent = parentFolder(of: probe)
            if parent == probe { return nil }
            probe = parent
        }
        var info = statvfs()
        guard statvfs(probe, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    /// Why nothing can be written at `path` (or its nearest existing ancestor, where it would be made): a
    /// read-only filesystem (EROFS) or a folder this user may not write (EACCES); nil when it can be written.
    public static func writeProblem(near path: String) -> SystemError? {
        var probe = path
        while !exists(probe) {
            let parent = parentFolder(of: probe)
            if parent == probe { return nil }
            probe = parent
        }
        guard access(probe, W_OK) != 0 else { return nil }
        return SystemError(.access, path: probe, errno: errno)
    }

    /// The names in `folder` (not "." and ".."), read in one pass: empty when there is no such folder
    /// (nothing can be at a name in it), nil when it cannot be read (the caller looks each name up).
    /// Names that are not valid UTF-8 are left out: no name made from a String is one of them.
    public static func names(in folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return errno == ENOENT || errno == ENOTDIR ? [] : nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(validatingCString: $0) }
            }
            guard let name, name != ".", name != ".." else { continue }
            names.append(name)
        }
        return names
    }

    /// The device number of the filesystem holding `path`, nil when it cannot be read.
    public static func device(of path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_dev)
    }

    /// The folder holding `path` ("." for a bare name, "/" for the root).
    public static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// Flushes a folder's entries (a rename into it) to disk, best effort.
    public static func syncFolder(of path: String) {
        _ = syncDirectory(parentFolder(of: path))
    }

    /// Flushes `folder`'s own entries (the renames made in it) to disk; false when that cannot be done
    /// there (a filesystem without fsync on a folder), for the caller to sync its whole filesystem instead.
    public static func syncDirectory(_ folder: String) -> Bool {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return fsync(fd) == 0
    }

    /// Flushes everything written to the filesystem holding `folder`: one journal commit for a batch of
    /// files rather than one fsync each (sync(2) where syncfs cannot be had).
    public static func syncFilesystem(containing folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            Glibc.sync()
            return
        }
        if msh_syncfs(fd) != 0 { Glibc.sync() }
        close(fd)
    }

    /// Flushes one open file, best effort.
    public static func sync(_ fd: Int32) { _ = fsync(fd) }

    /// Removes a file, best effort (an empty `.part` nobody needs).
    public static func remove(_ path: String) { _ = unlink(path) }

    /// Releases a lock taken with `lock(_:wait:)` and closes its file.
    public static func unlock(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    private static func lstatus(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }
}
