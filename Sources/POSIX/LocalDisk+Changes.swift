import CMediaShellShim
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The calls on local files that can fail: each throws a `SystemError` with the call, the path and errno.
extension LocalDisk {
    /// Opens (creating) a file for writing without following a symlink planted at its name (a `.part`).
    /// It can be read through the descriptor too: what an earlier run kept is checked before it is continued.
    public static func openForWriting(_ path: String) throws(SystemError) -> Int32 {
        try systemCall(.open, path: path) { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644) }
    }

    public static func truncate(_ fd: Int32, to size: UInt64, path: String) throws(SystemError) {
        try systemCall(.ftruncate, path: path) { ftruncate(fd, off_t(size)) }
    }

    /// Writes all of `bytes` at `offset`.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64, path: String) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            done += try systemCall(.write, path: path) {
                pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + UInt64(done)))
            }
        }
    }

    public static func rename(_ from: String, to: String) throws(SystemError) {
        try systemCall(.rename, path: from) { Glibc.rename(from, to) }
    }

    /// Renames `from` to `to` unless something is there already (a file, a folder, a link): then it throws
    /// EEXIST and `to` is untouched. One call (renameat2's RENAME_NOREPLACE) where the filesystem can
    /// refuse that way, so that nothing can appear at `to` between a look and the rename; elsewhere (a
    /// filesystem without it answers EINVAL) a look at `to`, then the rename.
    public static func renameKeepingExisting(_ from: String, to: String) throws(SystemError) {
        do throws(SystemError) {
            try systemCall(.rename, path: from) { msh_rename_noreplace(from, to) }
        } catch where error.errno == EEXIST {
            throw SystemError(.rename, path: to, errno: EEXIST)
        } catch where [EINVAL, ENOSYS, ENOTSUP].contains(error.errno) {
            if exists(to) { throw SystemError(.rename, path: to, errno: EEXIST) }
            try rename(from, to: to)
        }
    }

    /// Sets a file's access and modification times to `seconds` since 1970 (a symlink is not followed).
    public static func setModificationTime(_ path: String, to seconds: Double) throws(SystemError) {
        var times = [timeStamp(seconds), timeStamp(seconds)]
        try systemCall(.utimensat, path: path) { utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) }
    }

    /// Sets an open file's access and modification times to `seconds` since 1970.
    public static func setModificationTime(_ fd: Int32, to seconds: Double) throws(SystemError) {
        var times = [timeStamp(seconds), timeStamp(seconds)]
        try systemCall(.futimens, on: "descriptor \(fd)") { futimens(fd, &times) }
    }

    private static func timeStamp(_ seconds: Double) -> timespec {
        let whole = seconds.rounded(.down)
        return timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }

    /// Makes a folder and the folders above it that are missing (mkdir -p); one already there is fine.
    public static func makeDirectory(_ path: String) throws(SystemError) {
        try makeDirectory(path, within: nil)
    }

    /// As `makeDirectory`, but never makes `root` or a folder above it: a root that is gone (a drive pulled,
    /// its mount point removed with it) is an error (ENOENT), not a folder made again on the disk beneath.
    /// Nil: any folder on the way is made.
    public static func makeDirectory(_ path: String, within root: String?) throws(SystemError) {
        if isDirectory(path) { return }
        if let root, !path.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
            throw SystemError(.mkdir, path: root, errno: ENOENT, detail: "gone")
        }
        let parent = parentFolder(of: path)
        if parent != path, !isDirectory(parent) {
            // A file where a folder on the way should be: this folder cannot be made under it.
            if exists(parent) { throw SystemError(.mkdir, path: path, errno: ENOTDIR) }
            try makeDirectory(parent, within: root)
        }
        do {
            try systemCall(.mkdir, path: path) { mkdir(path, 0o755) }
        } catch where error.errno == EEXIST && isDirectory(path) {
            return  // made meanwhile by someone else
        }
    }

    /// Reads the first `count` bytes of a regular file (not through a symlink), chunk by chunk, into `body`.
    /// A file shorter than `count` is an error (EIO, "shorter than N bytes").
    public static func readPrefix(_ path: String, count: UInt64, _ body: (UnsafeRawBufferPointer) -> Void) throws(SystemError) {
        let fd = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = count
        while left > 0 {
            let want = Int(min(UInt64(buffer.count), left))
            let n = try systemCall(.read, path: path) { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) } }
            if n == 0 { throw SystemError(.read, path: path, errno: EIO, detail: "shorter than \(count) bytes") }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            left -= UInt64(n)
        }
    }

    /// Reads `count` bytes of a regular file from `offset` (not through a symlink), chunk by chunk, into
    /// `body`. A file that ends first is an error (EIO).
    public static func readRange(
        _ path: String, from offset: UInt64, count: UInt64, _ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void
    ) throws(SystemError) {
        let fd = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(fd) }
        try readRange(fd, path: path, from: offset, count: count, body)
    }

    /// As `readRange(_:from:count:_:)`, from a file open for reading as `fd` (`path` names it in errors).
    public static func readRange(
        _ fd: Int32, path: String, from offset: UInt64, count: UInt64,
        _ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void
    ) throws(SystemError) {
        var buffer = [UInt8](repeating: 0, count: Int(min(count, 1 << 20)))
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(UInt64(buffer.count), count - done))
            let n = try systemCall(.read, path: path) {
                buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, want, off_t(offset + done)) }
            }
            if n == 0 { throw SystemError(.read, path: path, errno: EIO, detail: "shorter than \(offset + count) bytes") }
            try buffer.withUnsafeBytes { raw in
                Result { () throws(SystemError) in try body(UnsafeRawBufferPointer(rebasing: raw[0..<n])) }
            }.get()
            done += UInt64(n)
        }
    }

    /// How many of the first `count` bytes of the file open as `fd` (`path`) are the same as those of the
    /// file at `other`: `count` when all are; less where they first differ, or where either ends.
    public static func matchingPrefix(_ fd: Int32, path: String, _ other: String, count: UInt64) throws(SystemError) -> UInt64 {
        let otherFD = try systemCall(.open, path: other) { open(other, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(otherFD) }
        let size = Int(min(count, 1 << 20))
        var mine = [UInt8](repeating: 0, count: size)
        var theirs = [UInt8](repeating: 0, count: size)
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(UInt64(size), count - done))
            let a = try systemCall(.read, path: path) { mine.withUnsafeMutableBytes { pread(fd, $0.baseAddress, want, off_t(done)) } }
            let b = try systemCall(.read, path: other) {
                theirs.withUnsafeMutableBytes { pread(otherFD, $0.baseAddress, want, off_t(done)) }
            }
            let both = min(a, b)
            var same = 0
            while same < both, mine[same] == theirs[same] { same += 1 }
            done += UInt64(same)
            if same < want { return done }
        }
        return done
    }

    /// Reads a file as the disk holds it rather than as the page cache remembers it: its cached pages are
    /// dropped first (posix_fadvise DONTNEED, which drops clean pages: sync the file before), then it is
    /// read in order, chunk by chunk, into `body` (and dropped again behind, so a read-back of a card's worth
    /// of files does not push everything else out of memory). Returns the number of bytes read.
    @discardableResult
    public static func readFromDisk(_ path: String, _ body: (UnsafeRawBufferPointer) -> Void) throws(SystemError) -> UInt64 {
        let fd = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(fd) }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        // As large as the file, up to 4 MiB: a buffer of 4 MiB zeroed for each of 1,000 photos of 80 kB
        // cost more than reading them.
        var buffer = [UInt8](repeating: 0, count: Int(min(4 << 20, max(64 << 10, size(fd) + 1))))
        var total: UInt64 = 0
        while true {
            let n = try systemCall(.read, path: path) { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n == 0 { break }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            _ = posix_fadvise(fd, off_t(total), off_t(n), POSIX_FADV_DONTNEED)
            total += UInt64(n)
        }
        return total
    }

    /// Reads a whole small file (a ledger); nil when there is none. One larger than `limit` is an error
    /// (EFBIG).
    public static func readWhole(_ path: String, limit: Int) throws(SystemError) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch where error.errno == ENOENT {
            return nil
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try systemCall(.read, path: path) { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
            if bytes.count > limit { throw SystemError(.read, path: path, errno: EFBIG, detail: "larger than \(limit) bytes") }
        }
    }

    /// Replaces `path` with `bytes` so that a reader sees the old file or the new one, never a mix, even
    /// after a crash: writes a temporary file beside it, flushes it, renames it over, flushes the folder.
    /// With `durable` false the flushes are left to the caller (a later `syncFilesystem` or `syncFile`):
    /// the rename still shows the old file or the new one, never a mix.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(SystemError) {
        let temporary = path + ".tmp.\(getpid())"
        let fd = try systemCall(.open, path: temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        do throws(SystemError) {
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                done += try systemCall(.write, path: temporary) {
                    bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
                }
            }
            if durable { try systemCall(.fsync, path: temporary) { fsync(fd) } }
        } catch {
            unlink(temporary)
            throw error
        }
        do {
            try systemCall(.rename, path: path) { Glibc.rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        if durable { syncFolder(of: path) }
    }

    /// Flushes a file and its folder to the disk.
    public static func syncFile(_ path: String) throws(SystemError) {
        let fd = try systemCall(.open, path: path) { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(fd) }
        try systemCall(.fsync, path: path) { fsync(fd) }
        syncFolder(of: path)
    }

    /// Opens (creating) a lock file and takes an exclusive `flock` on it; returns the descriptor (release it
    /// with `unlock`), or nil when `wait` is false and another holder has it.
    public static func lock(_ path: String, wait: Bool) throws(SystemError) -> Int32? {
        let fd = try systemCall(.open, path: path) { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        do {
            try systemCall(.flock, path: path) { flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) }
            return fd
        } catch {
            close(fd)
            if error.errno == EWOULDBLOCK { return nil }
            throw error
        }
    }
}
