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
/// `BackupTarget` says. Its copies are written on a thread of its own (`queue`), in the order the run gives
/// them, while the run goes on with the first copy: the run drains it before a group is synced. When a
/// write there fails (the disk is full, the drive was pulled) the destination stops for the rest of the run
/// and the others go on; `stopped` says why.
public final class BackupDestination: Sendable {
    public let target: BackupTarget
    public var root: String { target.root }
    public var stopped: SystemError? { state.withLock { $0.stopped } }
    /// What writes the bytes arriving from the camera into this destination's `.part`s.
    let writer: BackupWriter
    /// Opens, writes and closes this destination's `.part`s, in order, off the run's thread.
    let queue: SerialWorker
    /// The filesystem the root was on at the start: a drive pulled (its mount point left empty, on the disk
    /// beneath) is told from one still there.
    private let device: UInt64?

    private struct State {
        var stopped: SystemError?
        /// The paths this run gave files here (a pattern of its own only).
        var claimed: Set<String> = []
    }

    private let state = Locked(State())

    /// How far the run may get ahead of this destination's disk: bytes received and not yet written here.
    static let maxQueuedBytes = 32 << 20

    public init(_ target: BackupTarget, writer: BackupWriter = .disk) {
        self.target = target
        self.writer = writer
        device = LocalDisk.device(of: target.root)
        queue = SerialWorker(name: "backup-writer", maxQueuedCost: Self.maxQueuedBytes)
    }

    /// True while the root is there, on the filesystem it was on at the start; else the destination stops.
    func stillThere() -> Bool {
        guard stopped == nil else { return false }
        if LocalDisk.isDirectory(root), LocalDisk.device(of: root) == device { return true }
        stop(SystemError(.open, path: root, errno: ENOENT, detail: "gone during the import (drive removed?)"))
        return false
    }

    func stop(_ error: SystemError) {
        state.withLock { state in
            if state.stopped == nil { state.stopped = error }
        }
    }

    /// Where the copy of a file goes here: by the backup's own pattern with the values the first copy's
    /// took, else where the first copy went (`destination`, under `primaryRoot`) in the same layout.
    /// A pattern of its own can name two files of one run alike (`%f` for the same name in two card
    /// folders): the second gets the next free name in the run (`NAME (2).JPG`), as the first copy's
    /// clashes are numbered, so that two `.part`s are never one file.
    func path(for destination: String, values: PatternValues?, primaryRoot: String) -> String {
        guard let pattern = target.pattern, let values else { return root + "/" + Self.relative(destination, to: primaryRoot) }
        let wanted = pattern.path(for: values)
        return state.withLock { state in
            var path = wanted
            var attempt = 2
            while !state.claimed.insert(path).inserted {
                path = ClashResolver.numberedPath(wanted, attempt)
                attempt += 1
            }
            return path
        }
    }

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
///
/// The run asks for each step (`prepare`, `write`, `finish`) and the destination's thread carries it out,
/// in that order; the run reads `isWhole` and calls `commit` only after draining that thread.
final class BackupPart: Sendable {
    let destination: BackupDestination

    private struct State {
        /// Where the copy goes (a different name when a different file has that one there: `commit`).
        var path: String
        var fd: Int32 = -1
        /// Every byte written and the `.part` closed, its size checked (`finish`).
        var whole = false
    }

    private let state: Locked<State>

    init(destination: BackupDestination, path: String) {
        self.destination = destination
        state = Locked(State(path: path))
    }

    deinit { close() }

    var path: String { state.withLock { $0.path } }
    var partPath: String { path + ".part" }
    var isWhole: Bool { state.withLock { $0.whole } }

    /// Queues the opening of the `.part`, made to hold what the first copy's `.part` holds up to `resumeAt`
    /// (proven to be the file's before the download goes on): bytes an earlier run wrote here are kept as
    /// far as they are the same, the rest copied from the first copy's, on this disk; then `firstBytes`
    /// from byte 0 when the download starts from them.
    func prepare(resumeAt: UInt64, primaryPart: String, firstBytes: [UInt8]) {
        destination.queue.submit(cost: firstBytes.count) { [self] in
            openPart(resumeAt: resumeAt, primaryPart: primaryPart, firstBytes: firstBytes)
        }
    }

    /// Queues the writing of `chunk` (copied: the caller's buffer is gone once this returns) at `offset`.
    func write(_ chunk: [UInt8], at offset: UInt64) {
        destination.queue.submit(cost: chunk.count) { [self] in
            chunk.withUnsafeBytes { writeNow($0, at: offset) }
        }
    }

    /// Queues the end of the copy: the whole file arrived; its capture time becomes its modification time,
    /// its size is checked, the `.part` closed (the group's sync makes it durable). `isWhole` says, once the
    /// destination's thread is drained, whether the copy is whole.
    func finish(size: UInt64, modificationTime: Double?) {
        destination.queue.submit { [self] in
            let whole = closeWhole(size: size, modificationTime: modificationTime)
            state.withLock { $0.whole = whole }
        }
    }

    /// Renames the `.part` into place once synced. A different file already at the name keeps it: the copy
    /// takes the next free one (`NAME (2).JPG`), as the first copy would.
    func commit() throws(SystemError) {
        let wanted = path
        var final = wanted
        var attempt = 2
        while true {
            do throws(SystemError) {
                try LocalDisk.renameKeepingExisting(wanted + ".part", to: final)
                break
            } catch where error.errno == EEXIST {
                final = ClashResolver.numberedPath(wanted, attempt)
                attempt += 1
            }
        }
        state.withLock { $0.path = final }
    }

    func close() {
        let fd = state.withLock { state in
            defer { state.fd = -1 }
            return state.fd
        }
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    // On the destination's thread.

    private func openPart(resumeAt: UInt64, primaryPart: String, firstBytes: [UInt8]) {
        // The run asked for this copy a moment ago: the drive may have gone since. Its root is never made
        // again (a pulled drive's mount point is not filled with the rest of the import).
        guard destination.stillThere() else { return }
        let path = path
        let partPath = partPath
        do throws(SystemError) {
            try LocalDisk.makeDirectory(LocalDisk.parentFolder(of: path), within: destination.root)
            let fd = try LocalDisk.openForWriting(partPath)
            state.withLock { $0.fd = fd }
            // What an earlier run wrote here stays only as far as it is the first copy's proven bytes.
            var have = min(LocalDisk.size(fd), resumeAt)
            if have > 0 { have = try LocalDisk.matchingPrefix(fd, path: partPath, primaryPart, count: have) }
            if have < resumeAt {
                var offset = have
                try LocalDisk.readRange(primaryPart, from: have, count: resumeAt - have) { chunk throws(SystemError) in
                    try LocalDisk.write(fd, chunk, at: offset, path: partPath)
                    offset += UInt64(chunk.count)
                }
            }
            let end = firstBytes.isEmpty ? resumeAt : UInt64(firstBytes.count)
            if !firstBytes.isEmpty {
                try firstBytes.withUnsafeBytes { raw in
                    Result { () throws(SystemError) in try LocalDisk.write(fd, raw, at: 0, path: partPath) }
                }.get()
            }
            if LocalDisk.size(fd) != end { try LocalDisk.truncate(fd, to: end, path: partPath) }
        } catch {
            fail(error)
        }
    }

    /// Writes `chunk` at `offset`; a failure stops the destination.
    private func writeNow(_ chunk: UnsafeRawBufferPointer, at offset: UInt64) {
        let fd = state.withLock { $0.fd }
        guard fd >= 0 else { return }
        do throws(SystemError) {
            try destination.writer.write(fd, chunk, offset, partPath)
        } catch {
            fail(error)
        }
    }

    /// Sets the time, checks the size and closes; false when the copy is not whole.
    private func closeWhole(size: UInt64, modificationTime: Double?) -> Bool {
        let fd = state.withLock { $0.fd }
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

    private func fail(_ error: SystemError) {
        destination.stop(error)
        close()
    }
}

/// Passes a download's bytes on to the first copy's sink, and has each chunk written into every backup copy
/// at the same offset (one copy of the chunk, shared by them).
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
        let copied = [UInt8](chunk)
        for backup in backups { backup.write(copied, at: offset) }
        offset += UInt64(chunk.count)
    }
}

/// A copy made on this computer from a proven one, for a destination an earlier import did not reach (a
/// backup that was full or pulled, a copy that read back wrong), or in place of one that failed a re-check
/// (`verify --repair`): the camera is not asked again.
enum LocalCopy {
    /// Copies `source` to `path` (through `path.part`, flushed, renamed; the next free name when a different
    /// file has that one), checking the source against `expected` as it is read from the disk; returns
    /// where the copy went. A source that no longer gives `expected` is not copied. A file at `path` that
    /// gives `expected` already (a copy an earlier import wrote there but could not list in the manifest,
    /// its disk full) is the copy: nothing is written.
    static func make(from source: String, to path: String, expected: Checksum) throws -> String {
        if LocalDisk.regularFileSize(path) != nil, holds(path, expected) { return path }
        try ImportError.onDisk { try LocalDisk.makeDirectory(LocalDisk.parentFolder(of: path)) }
        let found = try writePart(from: source, for: path, expected: expected)
        guard found == expected else {
            throw ImportError.sourceChanged(path: source, expected: expected.description, found: found.description)
        }
        let part = path + ".part"
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

    /// Copies `source` into `path.part` (made afresh), hashing it as it is read from the disk (`progress`
    /// gets the bytes copied so far); returns the checksum it gave. When that is `expected` the `.part` is
    /// flushed and closed, with the source's modification time; when not, it is removed.
    static func writePart(
        from source: String, for path: String, expected: Checksum, progress: ((UInt64) -> Void)? = nil
    ) throws -> Checksum {
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
                progress?(offset)
            }
        }
        if let failure { throw ImportError.local(failure) }
        let found = hash.checksum()
        guard found == expected else {
            LocalDisk.remove(part)
            return found
        }
        if let time = LocalDisk.modificationTime(source) { try? LocalDisk.setModificationTime(fd, to: time) }
        LocalDisk.sync(fd)
        _ = Glibc.close(fd)
        closed = true
        return found
    }

    /// True when the file at `path`, read from the disk, gives `expected`.
    static func holds(_ path: String, _ expected: Checksum) -> Bool { checksum(of: path, expected.algorithm) == expected }

    /// The checksum of the file at `path` read from the disk; nil when it cannot be read.
    static func checksum(of path: String, _ algorithm: Checksum.Algorithm) -> Checksum? {
        let hash = algorithm.makeHasher()
        guard (try? LocalDisk.readFromDisk(path, { hash.update($0) })) != nil else { return nil }
        return hash.checksum()
    }
}
