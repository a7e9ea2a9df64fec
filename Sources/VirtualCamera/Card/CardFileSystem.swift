import Foundation
import POSIX
#if canImport(Glibc)
import Glibc
#endif

/// Every libc call the virtual camera makes on the served folder, in one place. Paths are walked one
/// component at a time from the root with O_NOFOLLOW, so nothing outside the root is ever opened
/// (symlinks and `..` included), even if the folder changes under us.
enum CardFileSystem {
    struct Entry {
        var name: String
        var isDirectory: Bool
        var size: UInt64
        var modified: Date
    }

    static func errorText(_ what: String, _ code: Int32 = errno) -> String {
        "\(what): \(String(cString: strerror(code)))"
    }

    /// Opens the root folder itself (following a symlink there is the user's choice).
    static func openRoot(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw CardError.folder(errorText(path)) }
        return fd
    }

    /// Opens `relativePath` beneath `rootFD` without following any symlink and without `..`.
    static func openBeneath(_ rootFD: Int32, _ relativePath: String, flags: Int32) throws -> Int32 {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else {
            throw CardError.outsideRoot(relativePath)
        }
        var dirFD = dup(rootFD)
        guard dirFD >= 0 else { throw CardError.folder(errorText("dup")) }
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            let next = openat(
                dirFD, component, (last ? flags : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC, 0o644)
            let saved = errno
            close(dirFD)
            guard next >= 0 else {
                if saved == ELOOP || saved == ENOTDIR { throw CardError.outsideRoot(relativePath) }
                throw CardError.folder(errorText(relativePath, saved))
            }
            dirFD = next
        }
        return dirFD
    }

    /// The entries of a directory opened with `fd` (which is consumed). Symlinks, sockets, devices and
    /// names that are not valid UTF-8 are skipped: they are never served. Nil when `cancellation`, asked
    /// every 256 entries, said to give up (a background scan that a session is waiting for).
    static func list(directoryFD fd: Int32, cancellation: Cancellation = .never) -> [Entry]? {
        guard let dir = fdopendir(fd) else {
            close(fd)
            return []
        }
        defer { closedir(dir) }
        var entries: [Entry] = []
        while let item = readdir(dir) {
            if entries.count & 255 == 255 && cancellation.isCancelled { return nil }
            let name = withUnsafePointer(to: item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(validatingCString: $0) }
            }
            guard let name, name != ".", name != "..", !name.hasPrefix(".") else { continue }
            var info = stat()
            guard fstatat(dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFDIR else { continue }
            let modified = Date(
                timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
            entries.append(Entry(name: name, isDirectory: type == S_IFDIR, size: UInt64(info.st_size), modified: modified))
        }
        return entries.sorted { $0.name < $1.name }
    }

    static func openDirectory(_ rootFD: Int32, _ relativePath: String) throws -> Int32 {
        if relativePath.isEmpty {
            let fd = openat(rootFD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw CardError.folder(errorText("root")) }
            return fd
        }
        return try openBeneath(rootFD, relativePath, flags: O_RDONLY | O_DIRECTORY)
    }

    /// Reads up to `buffer.count` bytes at `offset`; EINTR retried.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        do throws(SystemError) {
            return try systemCall(.read) { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
        } catch {
            throw CardError.folder(errorText("read", error.errno))
        }
    }

    static func size(_ fd: Int32) -> UInt64 {
        var info = stat()
        return fstat(fd, &info) == 0 ? UInt64(info.st_size) : 0
    }

    static func closeFile(_ fd: Int32) { close(fd) }

    static func modificationDate(_ fd: Int32) -> Date {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .distantPast }
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Removes a file or an empty folder beneath the root.
    static func remove(_ rootFD: Int32, _ relativePath: String, isDirectory: Bool) throws {
        var parts = relativePath.split(separator: "/").map(String.init)
        guard let name = parts.popLast(), name != "..", name != "." else { throw CardError.outsideRoot(relativePath) }
        let parentFD = try openDirectory(rootFD, parts.joined(separator: "/"))
        defer { close(parentFD) }
        guard unlinkat(parentFD, name, isDirectory ? AT_REMOVEDIR : 0) == 0 else {
            throw CardError.folder(errorText("delete \(relativePath)"))
        }
    }

    /// Creates a folder beneath the root (parents must exist); an existing folder is fine.
    static func makeDirectory(_ rootFD: Int32, _ relativePath: String) throws {
        var parts = relativePath.split(separator: "/").map(String.init)
        guard let name = parts.popLast() else { return }
        let parentFD = try openDirectory(rootFD, parts.joined(separator: "/"))
        defer { close(parentFD) }
        if mkdirat(parentFD, name, 0o755) != 0 && errno != EEXIST {
            throw CardError.folder(errorText("mkdir \(relativePath)"))
        }
    }

    /// Writes a new file beneath the root; fails if it exists.
    static func create(_ rootFD: Int32, _ relativePath: String, contents: [UInt8]) throws {
        let fd = try openBeneath(rootFD, relativePath, flags: O_WRONLY | O_CREAT | O_EXCL)
        defer { close(fd) }
        try contents.withUnsafeBytes { try writeAll(fd, $0, what: relativePath) }
    }

    /// Creates a folder beneath the root (parents must exist); one that exists is `CardError.exists`.
    static func makeNewDirectory(_ rootFD: Int32, _ relativePath: String) throws {
        var parts = relativePath.split(separator: "/").map(String.init)
        guard let name = parts.popLast(), name != "..", name != "." else { throw CardError.outsideRoot(relativePath) }
        let parentFD = try openDirectory(rootFD, parts.joined(separator: "/"))
        defer { close(parentFD) }
        guard mkdirat(parentFD, name, 0o755) == 0 else {
            if errno == EEXIST { throw CardError.exists(name) }
            if errno == ENOSPC { throw CardError.full(needed: 0, free: 0) }
            throw CardError.folder(errorText("mkdir \(relativePath)"))
        }
    }

    /// Creates a new file `name` in the folder `dirFD` for writing; never follows or replaces anything.
    static func createFile(in dirFD: Int32, _ name: String) throws -> Int32 {
        let fd = openat(dirFD, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { throw CardError.exists(name) }
            throw CardError.folder(errorText("create \(name)"))
        }
        return fd
    }

    /// Writes all of `bytes`; EINTR retried, a full disk is `CardError.full`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, what: String) throws {
        do throws(SystemError) {
            try POSIX.writeAll(fd, bytes)
        } catch {
            if error.errno == ENOSPC || error.errno == EDQUOT { throw CardError.full(needed: UInt64(bytes.count), free: 0) }
            throw CardError.folder(errorText("write \(what)", error.errno))
        }
    }

    /// Flushes a written file to the disk and closes it; either failing is an error (the data may be lost).
    static func syncAndClose(_ fd: Int32, what: String) throws {
        let synced = fsync(fd) == 0
        let saved = errno
        let closed = close(fd) == 0
        guard synced, closed else { throw CardError.folder(errorText("write \(what)", synced ? errno : saved)) }
    }

    /// Gives the file `from` in `dirFD` the name `to` as well, failing if `to` exists (never replacing).
    static func linkNew(_ dirFD: Int32, from: String, to: String) throws {
        guard linkat(dirFD, from, dirFD, to, 0) == 0 else {
            if errno == EEXIST { throw CardError.exists(to) }
            throw CardError.folder(errorText("rename \(to)"))
        }
    }

    /// Removes the file `name` in `dirFD` if it is there.
    static func unlink(_ dirFD: Int32, _ name: String) { _ = unlinkat(dirFD, name, 0) }

    /// Available and total bytes of the filesystem holding `fd`.
    static func capacity(_ fd: Int32) -> (total: UInt64, free: UInt64) {
        var info = statvfs()
        guard fstatvfs(fd, &info) == 0 else { return (0, 0) }
        return (UInt64(info.f_blocks) * UInt64(info.f_frsize), UInt64(info.f_bavail) * UInt64(info.f_frsize))
    }

    static func readWholeFile(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CardError.folder(errorText(path)) }
        defer { close(fd) }
        let size = Int(min(size(fd), UInt64(limit)))
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = try bytes.withUnsafeMutableBytes {
                try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[done...]), at: UInt64(done))
            }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}

/// Why the card refused something; the responder maps these to PTP response codes.
public enum CardError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchObject(UInt32)
    case readOnly
    case outsideRoot(String)
    case folder(String)
    case unsupported(String)
    /// The name is taken in that folder: nothing is ever replaced.
    case exists(String)
    /// A name with nothing usable left once sanitized.
    case badName(String)
    case tooLarge(UInt64, limit: UInt64)
    case full(needed: UInt64, free: UInt64)

    public var description: String {
        switch self {
        case .noSuchObject(let h): "no object with handle \(h)"
        case .readOnly: "the card is read-only"
        case .outsideRoot(let p): "refusing a path outside the card: \(p)"
        case .folder(let why): why
        case .unsupported(let why): why
        case .exists(let name): "\(name) exists"
        case .badName(let name): "not a usable file name: \(name.debugDescription)"
        case .tooLarge(let size, let limit): "\(size) bytes is more than the \(limit) accepted"
        case .full(let needed, let free): "no room: \(needed) bytes needed, \(free) free"
        }
    }
}
