import CMediaShellShim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The libc calls the media manager makes on the local disk, in one place, with errors a user can read.
enum LocalFile {
    static func errorText(_ what: String, _ code: Int32 = errno) -> String {
        "\(what): \(String(cString: strerror(code)))"
    }

    /// Size of a regular file (symlinks not followed), nil when absent.
    static func size(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_size)
    }

    /// Size of a regular file; nil for anything else (absent, a folder, a symlink).
    static func regularFileSize(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    static func size(_ fd: Int32) -> UInt64 {
        var info = stat()
        return fstat(fd, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// Modification time of a file (symlinks not followed), nil when absent.
    static func modificationTime(_ path: String) -> Date? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Reads the first `count` bytes of a regular file, chunk by chunk, into `body`; false when it cannot.
    static func readPrefix(_ path: String, count: UInt64, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = count
        while left > 0 {
            let want = Int(min(UInt64(buffer.count), left))
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            left -= UInt64(n)
        }
        return true
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Opens (creating) a `.part` for writing without following a symlink planted at its name.
    static func openPart(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw DownloadError.local(errorText("cannot write \(path)")) }
        return fd
    }

    static func truncate(_ fd: Int32, to size: UInt64, path: String) throws {
        guard ftruncate(fd, off_t(size)) == 0 else { throw DownloadError.local(errorText("truncate \(path)")) }
    }

    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + UInt64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw DownloadError.local(errorText("write \(path)"))
            }
            done += n
        }
    }

    static func sync(_ fd: Int32) { _ = fsync(fd) }

    /// Flushes everything written to the filesystem holding `folder` (one journal commit for a whole batch
    /// of files instead of one fsync each).
    static func syncFilesystem(containing folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            Glibc.sync()
            return
        }
        if msh_syncfs(fd) != 0 { Glibc.sync() }
        close(fd)
    }

    /// Gives a file the capture time as its modification (and access) time, as cameras' own importers do,
    /// so that photo managers sort downloads by when they were taken. A symlink is not followed.
    static func setModificationTime(_ path: String, to date: Date) throws {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let stamp = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        var times = [stamp, stamp]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw DownloadError.local(errorText("cannot set the time of \(path)"))
        }
    }

    static func rename(_ from: String, to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw DownloadError.local(errorText("rename \(from)")) }
    }

    static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DownloadError.local("cannot create \(path): \(error.localizedDescription)")
        }
    }
}
