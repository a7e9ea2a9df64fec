import Checksums
import Failures
import Foundation
import POSIX
import PTP
#if canImport(Glibc)
import Glibc
#endif

/// What happened to one file of a fetch.
public enum DownloadOutcome: Equatable, Sendable {
    /// Written whole; `resumedFrom` is where this run started (0 for a fresh download).
    case downloaded(path: String, bytes: UInt64, resumedFrom: UInt64)
    /// Already in the destination with the same name and size ("only new" mode).
    case skippedExisting(path: String)
}

extension DownloadError {
    /// Runs calls on the local disk, a failure becoming `.local`.
    static func onDisk<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError { throw DownloadError.local(error) }
    }
}

/// Reads a range of a camera file: `count` bytes from `offset` into `sink`; returns bytes delivered.
public typealias RangeReader = (_ offset: UInt64, _ count: Int, _ sink: DataSink) throws -> Int

/// Downloads one file: streams ranges into `NAME.part` beside the destination, resuming from the
/// `.part` that an earlier attempt left, and renames it to `NAME` only when complete and the size
/// matches. An existing `NAME` is never replaced unless `overwrite` is set.
public struct DownloadJob {
    public struct Options: Sendable {
        /// Replace an existing destination file.
        public var overwrite = false
        /// Skip a file whose name and size already match in the destination.
        public var onlyNew = false
        /// Start from this offset instead of the `.part`'s size (the shell's `offset` command).
        public var startOffset: UInt64?
        /// Keep the `.part`'s record in its sidecar even where the filesystem has extended attributes (a
        /// test of the path a memory card's FAT takes).
        public var recordsInSidecar = false
        /// The clock the `.part`'s record is kept on, once a second (a test's manual clock).
        public var recordClock: any WaitClock = MonotonicClock()
        /// Bytes asked for per request; cancellation is checked between requests.
        public var chunkSize = 8 << 20
        /// When set (background jobs), each request is sized from the link's measured rate instead, at most
        /// `chunkSize`, so that one request takes well under a second.
        public var chunkSizing: ChunkSizing?
        /// The device cannot read part of a file (no GetPartialObject): the file comes whole in one request,
        /// from byte 0 whatever the `.part` holds; progress, the rate and Ctrl-C are handled as bytes arrive.
        public var wholeFile = false
        /// Seconds since 1970 given to the whole file as its modification time (the capture time), through
        /// its open descriptor before it is closed: no second lookup of its path.
        public var modificationTime: Double?
        /// Without `modificationTime`: the capture time read from the finished `.part` (its path given),
        /// for a file whose time was not known before it came (no request to the camera for it).
        public var modificationTimeFromContent: (@Sendable (String) -> Double?)?
        /// The file's first bytes, read from the camera already (an import reads them to learn the date
        /// that places the file, or ahead of time): written from byte 0, the requests going on after them,
        /// unless the `.part` holds more. At most the file's size; with `wholeFile` only the whole file;
        /// not used with `startOffset`.
        public var firstBytes: [UInt8] = []
        /// The caller has just found the destination's name free (`ClashResolver`): it is not looked up
        /// again before the download. A file that appears there meanwhile is still never replaced (the
        /// rename is refused: `.exists`).
        public var nameFound = false
        public init() {}
    }

    public var remoteName: String
    public var size: UInt64
    public var destinationFolder: String
    /// The local name (already sanitized and made unique by the caller).
    public var localName: String
    public var options: Options
    /// The camera object downloaded, as the `.part`'s record names it: a `.part` is continued only when
    /// its record names this object (and its bytes prove it: `PartProof`).
    public var source: PartRecord.Source

    public init(
        remoteName: String, size: UInt64, destinationFolder: String, localName: String, options: Options = Options(),
        source: PartRecord.Source? = nil
    ) {
        self.remoteName = remoteName
        self.size = size
        self.destinationFolder = destinationFolder
        self.localName = localName
        self.options = options
        self.source = source ?? .named(remoteName, size: size)
    }

    public var destination: String { destinationFolder + "/" + localName }
    public var partPath: String { destination + ".part" }

    /// Size of the `.part` an earlier attempt left, or nil.
    public var partialSize: UInt64? { LocalDisk.size(partPath) }

    /// True when the download starts from `firstBytes` (written over the `.part`'s first `kept` bytes).
    public func startsFromFirstBytes(kept: UInt64) -> Bool {
        let count = UInt64(options.firstBytes.count)
        return options.startOffset == nil && count > 0 && count <= size && count > kept
            && (!options.wholeFile || count == size)
    }

    /// Downloads, flushes the file to disk, and renames it into place.
    public func run(
        read: RangeReader, cancellation: Cancellation? = nil, progress: ((TransferProgress) -> Void)? = nil
    ) throws -> DownloadOutcome {
        switch try transfer(read: read, cancellation: cancellation, progress: progress, syncToDisk: true, willWrite: nil) {
        case .skipped(let outcome): return outcome
        case .complete(let part): return try part.commit()
        }
    }

    /// What `transfer` leaves: nothing to do, or a whole `.part` waiting to be renamed.
    public enum TransferResult {
        case skipped(DownloadOutcome)
        case complete(CompletedPart)
    }

    /// Streams the file into its `.part` and checks its size, without renaming it. With `syncToDisk` false
    /// the caller must make the data durable (e.g. one `syncfs` for a batch) before `CompletedPart.commit()`,
    /// so that no file ever appears under its final name without its bytes on disk. A `.part` an earlier
    /// run kept is continued only as far as it is proven to be this file's (`PartProof`): `willWrite` is
    /// told where the download goes on from (0: from the start), and whether from the first bytes in hand,
    /// before anything is written.
    public func transfer(
        read: RangeReader, cancellation: Cancellation? = nil, progress: ((TransferProgress) -> Void)? = nil,
        syncToDisk: Bool, willWrite: ((_ from: UInt64, _ fromFirstBytes: Bool) -> Void)? = nil
    ) throws -> TransferResult {
        do {
            return try stream(
                read: read, cancellation: cancellation, progress: progress, syncToDisk: syncToDisk, willWrite: willWrite)
        } catch {
            // A failed attempt that got no byte leaves no empty .part behind.
            if LocalDisk.size(partPath) == 0 {
                LocalDisk.remove(partPath)
                LocalDisk.remove(PartRecord.sidecarPath(of: partPath))
            }
            throw error
        }
    }

    private func stream(
        read: RangeReader, cancellation: Cancellation?, progress: ((TransferProgress) -> Void)?, syncToDisk: Bool,
        willWrite: ((_ from: UInt64, _ fromFirstBytes: Bool) -> Void)?
    ) throws -> TransferResult {
        if !options.nameFound || options.overwrite || options.onlyNew, let existing = LocalDisk.size(destination) {
            if options.onlyNew && existing == size { return .skipped(.skippedExisting(path: destination)) }
            if !options.overwrite { throw DownloadError.exists(path: destination) }
        }
        let fd = try DownloadError.onDisk { try LocalDisk.openForWriting(partPath) }
        defer { close(fd) }
        let records = PartRecordStore(partPath: partPath, sidecarOnly: options.recordsInSidecar)
        let onDisk = LocalDisk.size(fd)
        // What is kept of the `.part` is what is proven to be this file's (`PartProof`); first bytes in hand
        // that reach further replace it unchecked, as they came from the camera just now.
        let fromFirstBytes = startsFromFirstBytes(kept: onDisk)
        var proof: PartProof
        if fromFirstBytes || options.wholeFile || onDisk == 0 {
            let restart: PartRestart? = options.wholeFile && onDisk > 0 && !fromFirstBytes ? .cannotReadRanges : nil
            proof = PartProof(
                proven: 0, hash: PartRecord.algorithm.makeHasher(), restart: restart, setAside: restart == nil ? 0 : onDisk)
        } else if !options.firstBytes.isEmpty, UInt64(options.firstBytes.count) <= onDisk,
            !(try keptBytesBegin(fd, with: options.firstBytes))
        {
            proof = PartProof(proven: 0, hash: PartRecord.algorithm.makeHasher(), restart: .cameraDiffers, setAside: onDisk)
        } else {
            do {
                proof = try PartProof.check(
                    fd, path: partPath, onDisk: onDisk, record: records.load(fd), source: source,
                    limit: options.startOffset, read: read)
            } catch let error as DownloadError {
                throw error
            } catch {
                throw interrupted(at: onDisk, by: error)
            }
        }
        var offset = proof.proven
        /// A record an earlier run left (removed when the file is whole, or now when none of it is kept).
        var earlierRecord = onDisk > 0
        if earlierRecord, offset == 0 {
            records.remove(fd, from: nil)
            earlierRecord = false
        }
        // Only a .part that holds more than where this run starts is cut. (A truncate of a new, empty file
        // is not free on ext4: a file truncated to 0 is written out when it is closed, one small write per
        // file on the download's path, where the batch's sync would have written it with the others.)
        if onDisk != offset { try DownloadError.onDisk { try LocalDisk.truncate(fd, to: offset, path: partPath) } }
        let resumedFrom = offset
        willWrite?(resumedFrom, fromFirstBytes)
        let sink = FileSink(fd: fd, path: partPath, offset: offset, hash: proof.hash)
        defer { sink.afterPiece = nil }
        let started = Date()
        /// Where this `.part`'s record was written in this run (nil: not yet).
        var recorded: PartRecordStore.Place?
        var lastRecord = options.recordClock.now()
        /// Records what the `.part` holds now, so that a later run can prove it: whenever a download is
        /// left unfinished; while it runs, once its first 512 KiB arrived and then once a second, within
        /// a request too (a crash, `kill -9`, loses at most that; a small file writes no record at all).
        func record(force: Bool) {
            guard !options.wholeFile else { return }
            let now = options.recordClock.now()
            let first = recorded == nil && sink.hashed - resumedFrom >= Self.firstRecordBytes
            guard force || first || now - lastRecord >= 1 else { return }
            lastRecord = now
            let entry = PartRecord(source: source, bytes: sink.hashed, checksum: proof.hash.checksum())
            recorded = (try? records.store(entry, fd)) ?? recorded
        }
        // Reported after every chunk; a terminal meter redraws at its own pace.
        func report() {
            guard let progress else { return }
            let now = Date()
            let elapsed = now.timeIntervalSince(started)
            let rate = elapsed > 0 ? Double(offset - resumedFrom) / elapsed : 0
            progress(TransferProgress(name: remoteName, bytesDone: offset, totalBytes: size, bytesPerSecond: rate, elapsed: elapsed))
        }
        /// The download stops here: what arrived reaches the disk and is recorded, and the last report says
        /// how far it got (the bytes of a request cut short included).
        func stopping(_ error: Error) -> Error {
            LocalDisk.sync(fd)
            record(force: true)
            if sink.offset > offset {
                offset = sink.offset
                report()
            }
            return error
        }
        report()
        sink.afterPiece = { record(force: false) }
        if fromFirstBytes {
            sink.reset(offset: 0, limit: options.firstBytes.count)
            try options.firstBytes.withUnsafeBytes { try sink.write($0) }
            offset = UInt64(sink.written)
            report()
        }
        while offset < size {
            if cancellation?.isCancelled == true { throw stopping(interrupted(at: offset, by: CancellationError())) }
            let chunk = options.chunkSizing.map { min($0.nextSize, options.chunkSize) } ?? options.chunkSize
            let want = options.wholeFile ? Int(clamping: size) : Int(min(UInt64(chunk), size - offset))
            sink.reset(offset: offset, limit: want)
            if options.wholeFile {
                sink.afterWrite = { done in
                    if cancellation?.isCancelled == true { throw interrupted(at: done, by: CancellationError()) }
                    offset = done
                    report()
                }
            }
            let got: Int
            do {
                if let sizing = options.chunkSizing, !options.wholeFile {
                    got = try sizing.measure { try read(offset, want, sink) }
                } else {
                    got = try read(offset, want, sink)
                }
            } catch let error as DownloadError {
                throw stopping(error)
            } catch {
                throw stopping(interrupted(at: sink.offset, by: error))
            }
            let written = sink.written
            guard written > 0 || got > 0 else {
                throw stopping(DownloadError.sizeMismatch(path: destination, expected: size, got: offset))
            }
            offset += UInt64(written)
            report()
        }
        report()
        if let time = options.modificationTime ?? options.modificationTimeFromContent?(partPath) {
            try? LocalDisk.setModificationTime(fd, to: time)
        }
        let final = LocalDisk.size(fd)
        guard final == size else { throw stopping(DownloadError.sizeMismatch(path: destination, expected: size, got: final)) }
        // Whole: the record goes (it would travel with the file through the rename).
        if recorded != nil || earlierRecord { records.remove(fd, from: earlierRecord ? nil : recorded) }
        if syncToDisk { LocalDisk.sync(fd) }
        return .complete(
            CompletedPart(
                partPath: partPath, destination: destination, size: size, resumedFrom: resumedFrom,
                overwrite: options.overwrite, checksum: sink.hashed == size ? proof.hash.checksum() : nil,
                restart: proof.restart, setAside: proof.setAside))
    }

    /// The bytes a download writes before its `.part` is first recorded (a photo smaller than that never
    /// is, unless it stops); from then on it is recorded once a second.
    static let firstRecordBytes: UInt64 = 512 << 10

    /// True when the `.part` open as `fd` begins with `first` (the file's first bytes, just read from the
    /// camera): a `.part` that does not is not a part of this file, whatever its record says.
    private func keptBytesBegin(_ fd: Int32, with first: [UInt8]) throws -> Bool {
        var kept: [UInt8] = []
        kept.reserveCapacity(first.count)
        try DownloadError.onDisk {
            try LocalDisk.readRange(fd, path: partPath, from: 0, count: UInt64(first.count)) { kept += $0 }
        }
        return kept == first
    }
}

extension DownloadJob {
    /// This download stopped at `at`, for `cause`.
    func interrupted(at: UInt64, by cause: any Error) -> DownloadError {
        .interrupted(remoteName: remoteName, path: destination, at: at, size: size, cause: cause)
    }
}

/// A `.part` holding the whole file, ready to take its final name.
public struct CompletedPart: Sendable {
    public var partPath: String
    public var destination: String
    public var size: UInt64
    public var resumedFrom: UInt64
    public var overwrite: Bool
    /// XXH3-128 of every byte of the file as it came from the camera (a resumed file's kept bytes as proven
    /// against the `.part`'s record); nil when the bytes did not come in order (never for a whole file).
    public var checksum: Checksum?
    /// Why a kept `.part` was not continued (nil: there was none, or it was).
    public var restart: PartRestart?
    /// The bytes the kept `.part` held when it was not continued.
    public var setAside: UInt64

    public init(
        partPath: String, destination: String, size: UInt64, resumedFrom: UInt64, overwrite: Bool,
        checksum: Checksum? = nil, restart: PartRestart? = nil, setAside: UInt64 = 0
    ) {
        self.partPath = partPath
        self.destination = destination
        self.size = size
        self.resumedFrom = resumedFrom
        self.overwrite = overwrite
        self.checksum = checksum
        self.restart = restart
        self.setAside = setAside
    }

    /// Renames the `.part` into place (refusing to replace a file that appeared meanwhile, unless overwriting).
    public func commit() throws -> DownloadOutcome {
        do throws(SystemError) {
            if overwrite {
                try LocalDisk.rename(partPath, to: destination)
            } else {
                try LocalDisk.renameKeepingExisting(partPath, to: destination)
            }
        } catch where error.errno == EEXIST && !overwrite {
            throw DownloadError.exists(path: destination)
        } catch {
            throw DownloadError.local(error)
        }
        return .downloaded(path: destination, bytes: size, resumedFrom: resumedFrom)
    }
}

/// Writes a data phase straight into the `.part` file at the right offset, refusing more bytes than the
/// request asked for (a device that sends more would otherwise write past the file's end), and feeds the
/// bytes written, in order, to the file's hash.
final class FileSink: DataSink {
    let fd: Int32
    let path: String
    private(set) var offset: UInt64
    private(set) var written = 0
    private var limit = Int.max
    /// Called with the file's offset after each chunk written (whole-file reads: progress, pacing, Ctrl-C).
    var afterWrite: ((UInt64) throws -> Void)?
    /// Called after each chunk written and hashed (the `.part`'s record, kept once a second).
    var afterPiece: (() -> Void)?
    /// The hash of the file's first `hashed` bytes, as written.
    let hash: any ChecksumHasher
    private(set) var hashed: UInt64

    /// `hash` covers the file's first `offset` bytes already.
    init(fd: Int32, path: String, offset: UInt64, hash: any ChecksumHasher) {
        self.fd = fd
        self.path = path
        self.offset = offset
        self.hash = hash
        hashed = offset
    }

    func reset(offset: UInt64, limit: Int) {
        self.offset = offset
        self.limit = limit
        written = 0
    }

    func begin(expectedLength: UInt64?) throws {
        if let expectedLength, expectedLength > UInt64(limit) {
            throw DownloadError.overrun("the camera sent \(expectedLength) bytes for a request of \(limit)")
        }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard written + chunk.count <= limit else {
            throw DownloadError.overrun("the camera sent more than the \(limit) bytes asked for")
        }
        try DownloadError.onDisk { try LocalDisk.write(fd, chunk, at: offset, path: path) }
        // Bytes come in order; one written anywhere else leaves the hash short (no checksum for the file).
        if offset == hashed {
            hash.update(chunk)
            hashed += UInt64(chunk.count)
        }
        offset += UInt64(chunk.count)
        afterPiece?()
        written += chunk.count
        try afterWrite?(offset)
    }
}
