import CFuse
import Foundation
import POSIX

/// What a mounted file system answers, in Swift's terms: paths relative to the mount's root ("" is the
/// root, "DCIM/100MEDIA/IMG_0001.JPG" a file), errors as errno values (`FileSystemError`). The one file
/// that touches libfuse (`FuseBridge`) turns each request into a call of these, on libfuse's worker
/// threads: every method may run on several threads at once.
protocol FileSystemOperations: AnyObject, Sendable {
    func attributes(of path: String) throws(FileSystemError) -> NodeAttributes
    /// The names in folder `path`, each with its attributes (one answer for `ls -l`, never a request each).
    func list(_ path: String) throws(FileSystemError) -> [(name: String, attributes: NodeAttributes)]
    /// Opens a file for reading; returns the handle the other calls name it by.
    func open(_ path: String, writing: Bool, truncating: Bool) throws(FileSystemError) -> UInt64
    /// Creates a new file, open for writing.
    func create(_ path: String) throws(FileSystemError) -> UInt64
    func read(_ handle: UInt64, offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int
    func write(_ handle: UInt64, offset: UInt64, from buffer: UnsafeRawBufferPointer) throws(FileSystemError) -> Int
    /// `close` of one descriptor (and `fsync`): a file being written is sent to the camera now, and the
    /// send's failure is the close's.
    func flush(_ handle: UInt64) throws(FileSystemError)
    /// The last descriptor of the handle is closed: whatever it holds is let go.
    func release(_ handle: UInt64)
    func truncate(_ path: String, size: UInt64, handle: UInt64?) throws(FileSystemError)
    func unlink(_ path: String) throws(FileSystemError)
    func makeFolder(_ path: String) throws(FileSystemError)
    func removeFolder(_ path: String) throws(FileSystemError)
    /// Size and free space of the storage(s), for `df`.
    func space() -> (capacity: UInt64, free: UInt64)
}

/// One node's attributes as `stat` shows them.
struct NodeAttributes: Sendable, Equatable {
    var isFolder: Bool
    var size: UInt64
    /// Seconds since 1970 (the capture time the catalog knows), nil: the mount's own start.
    var modified: Double?
    /// Whether the owner may write it (a camera that takes uploads and deletes, not mounted read-only).
    var writable: Bool
}

/// An errno for the kernel: what a call of a mounted file system failed with.
struct FileSystemError: Error, Equatable, Sendable {
    let errno: Int32
    init(_ errno: Int32) { self.errno = errno }
}

/// The kinds of call the kernel makes of a mount, counted by `FuseBridge`: what a task cost in calls (a
/// `getattr` each name, or none) shows in the mount's log under `--debug-ptp`, and tests assert it.
enum FuseCall: Int, CaseIterable, Sendable {
    case getattr, readdir, open, read, create, write, flush, release, truncate, unlink, mkdir, rmdir, statfs

    var name: String { "\(self)" }
}

/// libfuse's high-level (path) API over a `FileSystemOperations`: fills `fuse_operations` with C callbacks
/// that find the Swift object through `fuse_get_context()->private_data`, mounts, runs the multi-threaded
/// loop until the file system is unmounted (`fusermount3 -u`) or SIGINT, SIGTERM or SIGHUP arrives
/// (libfuse's own handlers), and unmounts.
final class FuseBridge: Sendable {
    let operations: FileSystemOperations
    private let owner: (uid: uid_t, gid: gid_t) = (getuid(), getgid())
    private let started = Date().timeIntervalSince1970
    private let counts = Locked([Int](repeating: 0, count: FuseCall.allCases.count))

    init(operations: FileSystemOperations) {
        self.operations = operations
    }

    /// Why the mount could not be made or run.
    struct MountFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Mounts on `mountPoint` with `options` (`-o` values: "ro", "fsname=..."), calls `mounted` once the
    /// kernel knows the mount, and serves until it is unmounted or a signal ends it; then unmounts.
    /// With `handlesSignals` false (a mount inside the shell, whose Ctrl-C is its own) no signal handler is
    /// touched: only an unmount ends the loop.
    func run(mountPoint: String, options: [String], handlesSignals: Bool = true, mounted: () -> Void) throws {
        var operationsTable = Self.table()
        let arguments = ["mediashell"] + options.flatMap { ["-o", $0] }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let cArguments = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
        let created: OpaquePointer? = cArguments.map { UnsafePointer($0) }.withUnsafeBufferPointer { argv in
            msh_fuse_new(argv.baseAddress, Int32(argv.count), &operationsTable, context)
        }
        guard let created else { throw MountFailure(description: "libfuse refused the mount options \(options.joined(separator: ","))") }
        // The handle is this call's alone: libfuse's workers reach the bridge through its context pointer.
        defer { fuse_destroy(created) }
        guard fuse_mount(created, mountPoint) == 0 else {
            throw MountFailure(description: "cannot mount on \(mountPoint) (is /dev/fuse there, and fusermount3 installed?)")
        }
        let session = fuse_get_session(created)
        guard handlesSignals else {
            mounted()
            let status = msh_fuse_loop_mt(created)
            fuse_unmount(created)
            if status < 0 { throw MountFailure(description: "the FUSE loop ended with an error (\(String(cString: strerror(-status))))") }
            return
        }
        // libfuse installs its handlers only over the default action, and a blocked signal never reaches
        // them: a parent that started this program with SIGTERM ignored or blocked would make it unstoppable.
        var endings = sigset_t()
        sigemptyset(&endings)
        for ending in [SIGINT, SIGTERM, SIGHUP] {
            signal(ending, SIG_DFL)
            sigaddset(&endings, ending)
        }
        pthread_sigmask(SIG_UNBLOCK, &endings, nil)
        let handlers = fuse_set_signal_handlers(session)
        mounted()
        let status = msh_fuse_loop_mt(created)
        if handlers == 0 { fuse_remove_signal_handlers(session) }
        fuse_unmount(created)
        if status < 0 { throw MountFailure(description: "the FUSE loop ended with an error (\(String(cString: strerror(-status))))") }
    }

    /// How many calls of each kind the kernel has made so far.
    func calls(_ kind: FuseCall) -> Int { counts.withLock { $0[kind.rawValue] } }

    /// Every kind's count, for the log: "getattr 3, readdir 14, open 0, ...".
    var callSummary: String {
        let counted = counts.withLock { $0 }
        return FuseCall.allCases.map { "\($0.name) \(counted[$0.rawValue])" }.joined(separator: ", ")
    }

    // MARK: The C side

    /// The bridge of the request being served, with its call of `kind` counted.
    private static func counting(_ kind: FuseCall) -> FuseBridge {
        let bridge = current
        bridge.counts.withLock { $0[kind.rawValue] += 1 }
        return bridge
    }

    /// The bridge of the request being served.
    private static var current: FuseBridge {
        Unmanaged<FuseBridge>.fromOpaque(msh_fuse_private_data()!).takeUnretainedValue()
    }

    /// A path from the kernel ("/DCIM/x.JPG") as the operations take it ("DCIM/x.JPG").
    private static func relative(_ path: UnsafePointer<CChar>?) -> String {
        guard let path else { return "" }
        var text = String(cString: path)
        while text.hasPrefix("/") { text.removeFirst() }
        return text
    }

    /// Runs `body`, its error as a negative errno.
    private static func call(_ body: () throws -> Int32) -> Int32 {
        do { return try body() } catch { return -((error as? FileSystemError)?.errno ?? EIO) }
    }

    private func fill(_ stat: UnsafeMutablePointer<stat>, _ attributes: NodeAttributes) {
        memset(stat, 0, MemoryLayout<stat>.size)
        let write: mode_t = attributes.writable ? 0o200 : 0
        if attributes.isFolder {
            stat.pointee.st_mode = S_IFDIR | 0o555 | write
            stat.pointee.st_nlink = 2
        } else {
            stat.pointee.st_mode = S_IFREG | 0o444 | write
            stat.pointee.st_nlink = 1
        }
        stat.pointee.st_uid = owner.uid
        stat.pointee.st_gid = owner.gid
        stat.pointee.st_size = off_t(clamping: attributes.size)
        stat.pointee.st_blksize = 128 << 10
        stat.pointee.st_blocks = blkcnt_t(clamping: (attributes.size + 511) / 512)
        let seconds = attributes.modified ?? started
        let whole = seconds.rounded(.down)
        let time = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        stat.pointee.st_mtim = time
        stat.pointee.st_ctim = time
        stat.pointee.st_atim = time
    }

    private static func table() -> fuse_operations {
        var ops = fuse_operations()
        ops.`init` = { conn, config in
            if let conn, let config { msh_fuse_configure(conn, config, UInt32(ReadAhead.maximum)) }
            return msh_fuse_private_data()
        }
        ops.getattr = { path, stat, _ in
            FuseBridge.call {
                let bridge = FuseBridge.counting(.getattr)
                bridge.fill(stat!, try bridge.operations.attributes(of: FuseBridge.relative(path)))
                return 0
            }
        }
        ops.readdir = { path, buffer, filler, offset, _, flags in
            FuseBridge.call {
                let bridge = FuseBridge.counting(.readdir)
                let entries = try bridge.operations.list(FuseBridge.relative(path))
                let plus = flags.rawValue & FUSE_READDIR_PLUS.rawValue != 0
                // Each entry goes with its offset ("." 1, ".." 2, then the names from 3), and a request
                // gets the entries after the offset it gives, until its buffer is full: so libfuse sends
                // each name's attributes with it (readdirplus), and `ls -l` asks nothing more per name.
                // (Given offset 0, libfuse 3.14 keeps the names in a list of its own and sends them without
                // attributes, so the kernel looks every name up again: a getattr each.)
                let none = fuse_fill_dir_flags(0)
                if offset < 1, filler?(buffer, ".", nil, 1, none) != 0 { return 0 }
                if offset < 2, filler?(buffer, "..", nil, 2, none) != 0 { return 0 }
                var stat = stat()
                var index = max(Int(offset) - 2, 0)
                while index < entries.count {
                    let entry = entries[index]
                    bridge.fill(&stat, entry.attributes)
                    if filler?(buffer, entry.name, &stat, off_t(index + 3), plus ? FUSE_FILL_DIR_PLUS : none) != 0 { break }
                    index += 1
                }
                return 0
            }
        }
        ops.open = { path, info in
            FuseBridge.call {
                let flags = info!.pointee.flags
                let access = flags & O_ACCMODE
                let handle = try FuseBridge.counting(.open).operations.open(
                    FuseBridge.relative(path), writing: access != O_RDONLY, truncating: flags & O_TRUNC != 0)
                info!.pointee.fh = handle
                msh_fuse_set_keep_cache(info, 1)
                // A reader's close has nothing to send: the kernel is told not to ask (no FLUSH round
                // trip per file a `cp -r` reads). A file being written is sent at its writer's close.
                msh_fuse_set_noflush(info, access == O_RDONLY ? 1 : 0)
                return 0
            }
        }
        ops.create = { path, _, info in
            FuseBridge.call {
                info!.pointee.fh = try FuseBridge.counting(.create).operations.create(FuseBridge.relative(path))
                return 0
            }
        }
        ops.read = { _, buffer, size, offset, info in
            FuseBridge.call {
                let target = UnsafeMutableRawBufferPointer(start: buffer, count: size)
                return Int32(try FuseBridge.counting(.read).operations.read(info!.pointee.fh, offset: UInt64(max(offset, 0)), into: target))
            }
        }
        ops.write = { _, buffer, size, offset, info in
            FuseBridge.call {
                let source = UnsafeRawBufferPointer(start: buffer, count: size)
                return Int32(try FuseBridge.counting(.write).operations.write(info!.pointee.fh, offset: UInt64(max(offset, 0)), from: source))
            }
        }
        ops.flush = { _, info in
            FuseBridge.call {
                try FuseBridge.counting(.flush).operations.flush(info!.pointee.fh)
                return 0
            }
        }
        ops.fsync = { _, _, info in
            FuseBridge.call {
                try FuseBridge.counting(.flush).operations.flush(info!.pointee.fh)
                return 0
            }
        }
        ops.release = { _, info in
            FuseBridge.counting(.release).operations.release(info!.pointee.fh)
            return 0
        }
        ops.truncate = { path, size, info in
            FuseBridge.call {
                try FuseBridge.counting(.truncate).operations.truncate(FuseBridge.relative(path), size: UInt64(max(size, 0)), handle: info.map { $0.pointee.fh })
                return 0
            }
        }
        ops.unlink = { path in
            FuseBridge.call {
                try FuseBridge.counting(.unlink).operations.unlink(FuseBridge.relative(path))
                return 0
            }
        }
        ops.mkdir = { path, _ in
            FuseBridge.call {
                try FuseBridge.counting(.mkdir).operations.makeFolder(FuseBridge.relative(path))
                return 0
            }
        }
        ops.rmdir = { path in
            FuseBridge.call {
                try FuseBridge.counting(.rmdir).operations.removeFolder(FuseBridge.relative(path))
                return 0
            }
        }
        ops.statfs = { _, stat in
            let space = FuseBridge.counting(.statfs).operations.space()
            let block: UInt64 = 4096
            memset(stat!, 0, MemoryLayout<statvfs>.size)
            stat!.pointee.f_bsize = UInt(block)
            stat!.pointee.f_frsize = UInt(block)
            stat!.pointee.f_blocks = fsblkcnt_t(space.capacity / block)
            stat!.pointee.f_bfree = fsblkcnt_t(space.free / block)
            stat!.pointee.f_bavail = fsblkcnt_t(space.free / block)
            stat!.pointee.f_namemax = 255
            return 0
        }
        // What a camera cannot do to a file it holds: said, never pretended. PTP has no rename (a copy and
        // a delete would be one the user did not ask for); a file's mode, owner and times are the camera's.
        // (Mounted read-only, the kernel answers EROFS before any of these is asked.)
        ops.rename = { _, _, _ in -ENOTSUP }
        ops.chmod = { _, _, _ in -EPERM }
        ops.chown = { _, _, _, _ in -EPERM }
        ops.utimens = { _, _, _ in -EPERM }
        ops.link = { _, _ in -EPERM }
        ops.symlink = { _, _ in -EPERM }
        return ops
    }
}
