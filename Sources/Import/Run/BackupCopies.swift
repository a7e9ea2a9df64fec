import Checksums
import Foundation
import MediaManager
import POSIX
import PTP

#if canImport(Glibc)
    import Glibc
#endif

/// Where a backup destination (`--backup`) puts each file: under a folder, in the layout the first copy
/// has under its pattern's root (`--backup /mnt/backup`), or by a pattern of its own with the same tokens
/// and the same values (`--backup '/mnt/backup/%c/%Y/%f'`).
public struct BackupTarget: Sendable, Equatable {
    /// The folder the copies go under: the folder given, or the pattern's part before its first token. It
    /// must be there at the start (a drive not mounted is not written to), and its manifest is kept there.
    public let root: String
    /// The backup's own pattern; nil: the first copy's layout under `root`.
    public let pattern: DestinationPattern?

    /// A folder that takes the first copy's layout.
    public init(folder: String) {
        self.init(root: folder, pattern: nil)
    }

    private init(root: String, pattern: DestinationPattern?) {
        self.root = root
        self.pattern = pattern
    }

    /// What `--backup` was given (`~` expanded, absolute): a pattern when it holds a token (`%Y`, `%f`, ...),
    /// else a folder.
    public init(_ text: String) throws(ImportError) {
        guard text.replacingOccurrences(of: "%%", with: "").contains("%") else {
            self.init(folder: text)
            return
        }
        let pattern = try DestinationPattern(text)
        self.init(root: pattern.fixedRoot, pattern: pattern)
    }
}

/// Writes the bytes of a file, as they arrive from the camera, into a backup destination's `.part`: `pwrite`
/// (`.disk`) unless another writer is given. One of one's own stands between the download and the backup's
/// disk: to count or pace the writes, or to fail them as a disk that fills up does. The `SystemError` it
/// throws stops that destination for the rest of the run, as a real failure would.
public struct BackupWriter: Sendable {
    /// Writes all of `bytes` at `offset` of the open `.part` (`descriptor`, at `partPath`).
    public typealias Write = @Sendable (
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: UInt64, _ partPath: String
    ) throws(SystemError) -> Void

    public let write: Write

    public init(_ write: @escaping Write) {
        self.write = write
    }

    /// `pwrite` until every byte is written.
    public static let disk = BackupWriter { descriptor, bytes, offset, partPath throws(SystemError) in
        try LocalDisk.write(descriptor, bytes, at: offset, path: partPath)
    }
}

/// One backup destination of an import: the folder a second (third) copy of every file goes under, as its
/// `BackupTarget` says. When a write there fails (the disk is full, the drive was pulled) the destination
/// stops for the rest of the run and the others go on; `stopped` says why.
public final class BackupDestination {
    public let target: BackupTarget
    public var root: String { target.root }
    public private(set) var stopped: SystemError?
    /// What writes the bytes arriving from the camera into this destination's `.part`s.
    let writer: BackupWriter
    /// The filesystem the root was on at the start: a drive pulled (its mount point left empty, on the disk
    /// beneath) is told from one still there.
    private let device: UInt64?

    public init(_ target: BackupTarget, writer: BackupWriter = .disk) {
        self.target = target
        self.writer = writer
        device = LocalDisk.device(of: target.root)
    }

    /// True while the root is there, on the filesystem it was on at the start; else the destination stops.
    func stillThere() -> Bool {
        guard stopped == nil else { return false }
        if LocalDisk.isDirectory(root), LocalDisk.device(of: root) == device { return true }
        stop(SystemError(.open, path: root, errno: ENOENT, detail: "gone during the import (drive removed?)"))
        return false
    }

    func stop(_ error: SystemError) {
        if stopped == nil { stopped = error }
    }

    /// Where the copy of a file goes here: by the backup's own pattern with the values the first copy's
    /// took, else where the first copy went (`destination`, under `primaryRoot`) in the same layout.
    /// A pattern of its own can name two files of one run alike (`%f` for the same name in two card
    /// folders): the second gets the next free name in the run (`NAME (2).JPG`), as the first copy's
    /// clashes are numbered, so that two `.part`s are never one file.
    func path(for destination: String, values: PatternValues?, primaryRoot: String) -> String {
        guard let pattern = target.pattern, let values else { return root + "/" + Self.relative(destination, to: primaryRoot) }
        let wanted = pattern.path(for: values)
        var path = wanted
        var attempt = 2
        while !claimed.insert(path).inserted {
            path = ClashResolver.numberedPath(wanted, attempt)
            attempt += 1
        }
        return path
    }

    /// The paths this run gave files here (a pattern of its own only).
    private var claimed: Set<String> = []

    /// `path` relative to `root` (the pattern's root); the path itself when it is not under it.
    static func relative(_ path: String, to root: String) -> String {
        if root == "." { return path.hasPrefix("./") ? String(path.dropFirst(2)) : path }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : (path as NSString).lastPathComponent
    }
}

/// A file's copy in one backup destination, written as the bytes arrive from the camera (never read from
/// the camera again, nor copied from the first copy after): `NAME.part` beside where it goes, renamed when
/// the group it belongs to is synced. Its `.part` continues where the first copy's does after Ctrl-C.
final class BackupPart {
    let destination: BackupDestination
    /// Where the copy goes (a different name when a different file has that one there: `commit`).
    private(set) var path: String
    var partPath: String { path + ".part" }
    private var fd: Int32 = -1

    init(destination: BackupDestination, path: String) {
        self.destination = destination
        self.path = path
    }

    deinit { close() }

    var isOpen: Bool { fd >= 0 }

    /// Opens the `.part` and makes it hold what the first copy's `.part` holds up to `resumeAt` (bytes an
    /// earlier run wrote to both; any it lacks are copied from the first copy's, on this disk), then
    /// `firstBytes` from byte 0 when the download starts from them. False when the destination stopped.
    func prepare(resumeAt: UInt64, primaryPart: String, firstBytes: [UInt8]) -> Bool {
        do throws(SystemError) {
            try LocalDisk.makeDirectory(LocalDisk.parentFolder(of: path))
            fd = try LocalDisk.openForWriting(partPath)
            let have = LocalDisk.size(fd)
            if have < resumeAt {
                var offset = have
                try LocalDisk.readRange(primaryPart, from: have, count: resumeAt - have) { chunk throws(SystemError) in
                    try LocalDisk.write(fd, chunk, at: offset, path: partPath)
                    offset += UInt64(chunk.count)
                }
            }
            let end = firstBytes.isEmpty ? resumeAt : UInt64(firstBytes.count)
            if !firstBytes.isEmpty {
                let fd = fd
                let path = partPath
                try firstBytes.withUnsafeBytes { raw in
                    Result { () throws(SystemError) in try LocalDisk.write(fd, raw, at: 0, path: path) }
                }.get()
            }
            if LocalDisk.size(fd) != end { try LocalDisk.truncate(fd, to: end, path: partPath) }
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// Writes `chunk` at `offset`; a failure stops the destination.
    func write(_ chunk: UnsafeRawBufferPointer, at offset: UInt64) {
        guard fd >= 0 else { return }
        do throws(SystemError) {
            try destination.writer.write(fd, chunk, offset, partPath)
        } catch {
            fail(error)
        }
    }

    /// The whole file arrived: its capture time as its modification time, its size checked; the `.part`
    /// is closed (the group's sync makes it durable). False when the copy is not whole.
    func finish(size: UInt64, modificationTime: Double?) -> Bool {
        guard fd >= 0 else { return false }
        defer { close() }
        if let modificationTime { try? LocalDisk.setModificationTime(fd, to: modificationTime) }
        let got = LocalDisk.size(fd)
        guard got == size else {
            fail(SystemError(.write, path: partPath, errno: EIO, detail: "\(got) bytes of \(size) written"))
            return false
        }
        return true
    }

    /// Renames the `.part` into place once synced. A different file already at the name keeps it: the copy
    /// takes the next free one (`NAME (2).JPG`), as the first copy would.
    func commit() throws(SystemError) {
        var attempt = 2
        let wanted = path
        while LocalDisk.exists(path) {
            path = ClashResolver.numberedPath(wanted, attempt)
            attempt += 1
        }
        try LocalDisk.rename(wanted + ".part", to: path)
    }

    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    private func fail(_ error: SystemError) {
        destination.stop(error)
        close()
    }
}

/// Passes a download's bytes on to the first copy's sink, and writes each chunk into every backup copy at
/// the same offset.
final class TeeSink: DataSink {
    let inner: DataSink
    let backups: [BackupPart]
    private var offset: UInt64

    init(_ inner: DataSink, backups: [BackupPart], offset: UInt64) {
        self.inner = inner
        self.backups = backups
        self.offset = offset
    }

    func begin(expectedLength: UInt64?) throws { try inner.begin(expectedLength: expectedLength) }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        try inner.write(chunk)
        for backup in backups { backup.write(chunk, at: offset) }
        offset += UInt64(chunk.count)
    }
}

/// A copy made on this computer from a proven one, for a destination an earlier import did not reach (a
/// backup that was full or pulled, a copy that read back wrong): the camera is not asked again.
enum LocalCopy {
    /// Copies `source` to `path` (through `path.part`, flushed, renamed; the next free name when a different
    /// file has that one), checking the source against `expected` as it is read from the disk; returns
    /// where the copy went. A source that no longer gives `expected` is not copied.
    static func make(from source: String, to path: String, expected: Checksum) throws -> String {
        try ImportError.onDisk { try LocalDisk.makeDirectory(LocalDisk.parentFolder(of: path)) }
        let part = path + ".part"
        let fd = try ImportError.onDisk { try LocalDisk.openForWriting(part) }
        var closed = false
        defer { if !closed { _ = Glibc.close(fd) } }
        try ImportError.onDisk { try LocalDisk.truncate(fd, to: 0, path: part) }
        let hash = expected.algorithm.makeHasher()
        var offset: UInt64 = 0
        var failure: SystemError?
        _ = try ImportError.onDisk {
            try LocalDisk.readFromDisk(source) { chunk in
                guard failure == nil else { return }
                hash.update(chunk)
                do throws(SystemError) {
                    try LocalDisk.write(fd, chunk, at: offset, path: part)
                } catch {
                    failure = error
                }
                offset += UInt64(chunk.count)
            }
        }
        if let failure { throw ImportError.local(failure) }
        let found = hash.checksum()
        guard found == expected else {
            LocalDisk.remove(part)
            throw ImportError.sourceChanged(path: source, expected: expected.description, found: found.description)
        }
        if let time = LocalDisk.modificationTime(source) { try? LocalDisk.setModificationTime(fd, to: time) }
        LocalDisk.sync(fd)
        _ = Glibc.close(fd)
        closed = true
        var final = path
        var attempt = 2
        while LocalDisk.exists(final) {
            final = ClashResolver.numberedPath(path, attempt)
            attempt += 1
        }
        try ImportError.onDisk { try LocalDisk.rename(part, to: final) }
        LocalDisk.syncFolder(of: final)
        return final
    }
}
