import CMediaShellShim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The libc calls the import makes on the local disk, in one place: locks, durable writes, free space,
/// modification times. Errors carry the path and the system's words.
enum ImportDisk {
    static func errorText(_ what: String, _ code: Int32 = errno) -> String {
        "\(what): \(String(cString: strerror(code)))"
    }

    /// Size of a regular file (symlinks not followed), nil when absent.
    static func size(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Modification time of a file (symlinks not followed), nil when absent.
    static func modificationTime(_ path: String) -> Date? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Sets a file's access and modification times to `date` (a symlink at `path` is not followed).
    static func setModificationTime(_ path: String, to date: Date) throws {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        var times = [stamp, stamp]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw ImportError.local(errorText("cannot set the time of \(path)"))
        }
    }

    /// Bytes free for an unprivileged writer on the filesystem holding `path` (or its nearest existing
    /// ancestor), nil when that cannot be read.
    static func freeBytes(near path: String) -> UInt64? {
        var probe = path
        while !exists(probe) {
            let parent = (probe as NSString).deletingLastPathComponent
            if parent == probe || parent.isEmpty { return nil }
            probe = parent
        }
        var info = statvfs()
        guard statvfs(probe, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ImportError.local("cannot create \(path): \(error.localizedDescription)")
        }
    }

    /// Reads a whole small file (a ledger), refusing one larger than `limit`.
    static func read(_ path: String, limit: Int) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ImportError.local(errorText("cannot read \(path)"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError.local(errorText("cannot read \(path)"))
            }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > limit { throw ImportError.local("\(path) is larger than \(limit) bytes") }
        }
        return bytes
    }

    /// Replaces `path` with `bytes` so that a reader sees the old file or the new one, never a mix, even
    /// after a crash: writes a temporary file beside it, flushes it, renames it over, flushes the folder.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImportError.local(errorText("cannot write \(temporary)")) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let text = errorText("cannot write \(temporary)")
                close(fd)
                unlink(temporary)
                throw ImportError.local(text)
            }
            done += n
        }
        if fsync(fd) != 0 {
            let text = errorText("cannot flush \(temporary)")
            close(fd)
            unlink(temporary)
            throw ImportError.local(text)
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let text = errorText("cannot replace \(path)")
            unlink(temporary)
            throw ImportError.local(text)
        }
        syncFolder(of: path)
    }

    /// Flushes a folder's entries (a rename into it) to disk.
    static func syncFolder(of path: String) {
        let fd = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Flushes everything written to the filesystem holding `folder`: one journal commit for a group of
    /// files rather than one fsync each.
    static func syncFilesystem(containing folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            Glibc.sync()
            return
        }
        if msh_syncfs(fd) != 0 { Glibc.sync() }
        close(fd)
    }

    /// Opens (creating) a lock file and takes an exclusive `flock` on it; returns the descriptor, or nil
    /// when `wait` is false and another holder has it.
    static func lock(_ path: String, wait: Bool) throws -> Int32? {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImportError.local(errorText("cannot open \(path)")) }
        while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw ImportError.local(errorText("cannot lock \(path)", code))
        }
        return fd
    }

    static func unlock(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    /// Reads the first `count` bytes of a local file, chunk by chunk, into `body` (hashing a `.part`).
    static func readPrefix(_ path: String, count: UInt64, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw ImportError.local(errorText("cannot read \(path)")) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = count
        while left > 0 {
            let want = Int(min(UInt64(buffer.count), left))
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError.local(errorText("cannot read \(path)"))
            }
            if n == 0 { throw ImportError.local("\(path) is shorter than \(count) bytes") }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            left -= UInt64(n)
        }
    }
}

extension ImportDisk {
    /// The device number of the filesystem holding `path`, nil when it cannot be read.
    static func device(of path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_dev)
    }
}
