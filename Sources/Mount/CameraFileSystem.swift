import Failures
import Foundation
import MediaManager
import POSIX
import PTP

/// The camera's card as a file system: names and attributes from the catalog (read once, kept current by
/// the camera's events: never a request per file), reads through partial reads with read-ahead
/// (`ReadAhead`) into a bounded memory cache (`ReadCache`), new files spooled and sent whole on close
/// (`WriteSpool`), deletes and folders as the shell makes them. What a camera cannot do (rename, change a
/// file in place, chmod) is refused with the errno a file system gives, never pretended.
final class CameraFileSystem: FileSystemOperations {
    let session: MediaSession
    let readOnly: Bool
    let cache: ReadCache
    /// Where spool files are made (and unlinked at once): the mount's state folder.
    let spoolFolder: String
    /// Where it is mounted, for the advice of the log.
    let mountPoint: String
    /// A camera without partial reads has its files read whole into the cache, up to this size; larger
    /// ones are refused at open (EFBIG).
    let wholeFileLimit: Int
    /// One line for the mount's log (standard error).
    let log: @Sendable (String) -> Void
    private let canReadRanges: Bool
    /// What the card takes, store by store: a change it refuses is EROFS, one the camera cannot make EPERM.
    let changes: CardChanges
    private let state = Locked(State())
    private let changeToken = Locked<Int?>(nil)

    private enum OpenFile {
        case reading(ReadStream)
        case writing(WriteSpool)
    }

    private struct State {
        var handles: [UInt64: OpenFile] = [:]
        var nextHandle: UInt64 = 1
        /// Files being written, by path, until they are on the camera (then the catalog lists them).
        var writing: [String: WriteSpool] = [:]
        /// Why the camera is gone, once it is: every call then fails with EIO at once.
        var gone: String?
        /// The threads of background fetches (`fetchAhead`), joined by `finishReading`.
        var fetchers: [JoinableThread] = []
    }

    init(
        session: MediaSession, readOnly: Bool, mountPoint: String, spoolFolder: String, cache: ReadCache = ReadCache(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.session = session
        self.readOnly = readOnly
        self.mountPoint = mountPoint
        self.cache = cache
        self.spoolFolder = spoolFolder
        self.log = log
        wholeFileLimit = cache.limit
        let summary = session.camera.summary
        canReadRanges = summary.canReadRanges
        // The stores' StorageInfo is asked only where a change could be let through.
        let mayChange = !readOnly && (summary.canDelete || summary.canUpload)
        changes = CardChanges(summary, storages: mayChange ? (try? session.camera.storages()) ?? [] : [])
        let token = session.camera.addChangeHandler { [cache] change in
            switch change {
            case .removed(let id), .changed(let id): cache.forget(file: id)
            default: break
            }
        }
        changeToken.withLock { $0 = token }
    }

    deinit {
        if let token = changeToken.withLock({ $0 }) { session.camera.removeChangeHandler(token) }
    }

    /// Whether the mount may change the card at all (files writable in `stat`); when not, it is mounted
    /// read-only and the kernel answers every change with EROFS.
    var changesAllowed: Bool { !readOnly && (changes.uploads || changes.deletes) }

    /// What the mount lets programs do, for its log: `read-only (the card is write-protected: ...)`.
    var accessWords: String {
        if readOnly { return "read-only" }
        if changes.cardRefusesChanges { return "read-only (the card is write-protected: its StorageInfo says read-only)" }
        switch (changes.uploads, changes.deletes) {
        case (true, true): return "new files, deletes and folders allowed"
        case (false, true): return "deletes allowed, no new files"
        case (true, false): return "new files and folders allowed, no deletes"
        case (false, false): return "read-only (the camera takes no changes)"
        }
    }

    /// The reason the camera went away, once it did.
    var goneBecause: String? { state.withLock { $0.gone } }

    // MARK: Names and attributes

    /// The catalog brought up to date (changes the camera reported are described now); EIO once the camera
    /// is gone.
    private func current() throws(FileSystemError) -> MediaCatalog {
        try checkPresent()
        do {
            try session.catalog.ensureLoaded()
        } catch {
            throw failure(error)
        }
        return session.catalog
    }

    private func checkPresent() throws(FileSystemError) {
        if state.withLock({ $0.gone }) != nil { throw FileSystemError(EIO) }
    }

    private func attributes(of file: MediaFile) -> NodeAttributes {
        NodeAttributes(
            isFolder: file.isFolder, size: file.isFolder ? 0 : file.size, modified: file.captureDate?.timeIntervalSince1970,
            writable: changesAllowed)
    }

    private func folderAttributes() -> NodeAttributes {
        NodeAttributes(isFolder: true, size: 0, modified: nil, writable: changesAllowed)
    }

    func attributes(of path: String) throws(FileSystemError) -> NodeAttributes {
        // The top answers even when the camera is gone, so that the mount itself can be looked at and unmounted.
        if path.isEmpty { return folderAttributes() }
        if let spool = state.withLock({ $0.writing[path] }) {
            return NodeAttributes(isFolder: false, size: spool.size, modified: nil, writable: true)
        }
        let catalog = try current()
        if let file = catalog.file(atPath: path) { return attributes(of: file) }
        if catalog.isFolder(path) { return folderAttributes() }
        throw FileSystemError(ENOENT)
    }

    func list(_ path: String) throws(FileSystemError) -> [(name: String, attributes: NodeAttributes)] {
        let catalog = try current()
        guard let contents = catalog.contents(of: path) else {
            throw FileSystemError(catalog.file(atPath: path) != nil ? ENOTDIR : ENOENT)
        }
        var entries = contents.map { (name: $0.name, attributes: attributes(of: $0)) }
        let listed = Set(entries.map(\.name))
        for spool in state.withLock({ Array($0.writing.values) }) where spool.folder == path && !listed.contains(spool.name) {
            entries.append((spool.name, NodeAttributes(isFolder: false, size: spool.size, modified: nil, writable: true)))
        }
        return entries
    }

    func space() -> (capacity: UInt64, free: UInt64) {
        guard goneBecause == nil, let stores = try? session.camera.storages() else { return (0, 0) }
        return stores.reduce((0, 0)) { ($0.0 + $1.capacity, $0.1 + $1.free) }
    }

    // MARK: Reading

    private func register(_ file: OpenFile) -> UInt64 {
        state.withLock { state in
            let handle = state.nextHandle
            state.nextHandle += 1
            state.handles[handle] = file
            return handle
        }
    }

    func open(_ path: String, writing: Bool, truncating: Bool) throws(FileSystemError) -> UInt64 {
        if let spool = state.withLock({ $0.writing[path] }) {
            // The file being written, opened again (a second descriptor of the writer): the same spool.
            if truncating { try spool.truncate(to: 0) }
            return register(.writing(spool))
        }
        let catalog = try current()
        guard let file = catalog.file(atPath: path) else {
            throw FileSystemError(catalog.isFolder(path) ? EISDIR : ENOENT)
        }
        if file.isFolder { throw FileSystemError(EISDIR) }
        // A file on the card is never changed in place: PTP can only send a new one.
        if writing { throw FileSystemError(readOnly ? EROFS : EPERM) }
        if !canReadRanges && file.size > UInt64(wholeFileLimit) { throw FileSystemError(EFBIG) }
        return register(.reading(ReadStream(file: file)))
    }

    func read(_ handle: UInt64, offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        let open = state.withLock { $0.handles[handle] }
        switch open {
        case .reading(let stream)?:
            try checkPresent()
            return try read(stream, offset: offset, into: buffer)
        case .writing(let spool)?:
            // Reading back what is being written: from the spool itself.
            return try spool.read(offset: offset, into: buffer)
        case nil:
            throw FileSystemError(EBADF)
        }
    }

    /// Fills `buffer` from the cache, asking the camera for the spans it lacks (one request each, sized by
    /// the stream's read-ahead). Reads of one open file take turns: a second read waits for the request in
    /// flight, whose bytes it most likely needs.
    private func read(_ stream: ReadStream, offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        let file = stream.file
        guard offset < file.size, buffer.count > 0 else { return 0 }
        let wanted = Int(min(UInt64(buffer.count), file.size - offset))
        var done = 0
        while done < wanted {
            let position = offset + UInt64(done)
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<wanted])
            if let got = cache.read(file: file.id, offset: position, into: rest) {
                done += got
                continue
            }
            let span = stream.beginFetch(offset: position, count: rest.count, size: file.size, wholeOnly: !canReadRanges)
            var fetched: Int?
            defer { stream.endFetch(offset: span.offset, count: fetched) }
            // Another read of this file (or the background fetch) may have brought the bytes while this one
            // waited for its turn: then nothing is asked, and the background fetches go on as they were.
            if let got = cache.read(file: file.id, offset: position, into: rest) {
                done += got
                continue
            }
            fetched = 0
            try checkPresent()
            let bytes: [UInt8]
            do {
                bytes = try fetch(file, offset: span.offset, count: span.count, ahead: span.count > rest.count)
            } catch {
                throw failure(error)
            }
            fetched = bytes.count
            cache.store(file: file.id, offset: span.offset, bytes: bytes)
            let start = Int(position - span.offset)
            guard start < bytes.count else { break }  // the camera sent less than the file's size: its end
            let count = min(rest.count, bytes.count - start)
            bytes.withUnsafeBytes { rest.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
            done += count
        }
        stream.served(offset: offset, count: done)
        if canReadRanges { fetchAhead(stream) }
        return done
    }

    /// Starts the stream's background fetches when one is due (`ReadAhead.background`): on a thread of its
    /// own, which fetches window after window while the reader stays within one window of their end, and
    /// ends when it falls behind, the file is closed, or a fetch fails (the reader's own read then asks
    /// again and meets the failure). Its requests are background transactions, as the read-ahead's are.
    private func fetchAhead(_ stream: ReadStream) {
        let file = stream.file
        guard let first = stream.beginBackgroundFetch(size: file.size) else { return }
        let thread: JoinableThread
        do {
            thread = try JoinableThread(name: "mount-ahead") { [self] in
                var span: (offset: UInt64, count: Int)? = first
                while let next = span {
                    var fetched = 0
                    do {
                        try checkPresent()
                        let bytes = try fetch(file, offset: next.offset, count: next.count, ahead: true)
                        cache.store(file: file.id, offset: next.offset, bytes: bytes)
                        fetched = bytes.count
                    } catch {
                        if !(error is FileSystemError) { _ = failure(error) }
                    }
                    stream.endFetch(offset: next.offset, count: fetched)
                    span = fetched > 0 ? stream.beginBackgroundFetch(size: file.size) : nil
                }
            }
        } catch {
            stream.endFetch(offset: first.offset, count: 0)
            return
        }
        state.withLock { state in
            state.fetchers.removeAll { $0.isFinished }
            state.fetchers.append(thread)
        }
    }

    /// Waits for the background fetches still running: the mount calls it before it closes the session.
    func finishReading() {
        for thread in state.withLock({ $0.fetchers }) { thread.join() }
    }

    /// One request for `count` bytes of `file` at `offset` (the whole file on a camera without partial
    /// reads). Read-ahead beyond what the reader asked goes as a background transaction, the turn-taking
    /// jobs use: another reader's request, a listing, waits for at most the one chunk in flight.
    private func fetch(_ file: MediaFile, offset: UInt64, count: Int, ahead: Bool) throws -> [UInt8] {
        let sink = BufferSink(limit: count)
        let camera = session.camera
        if ahead {
            _ = try PTPSession.asBackground { try camera.read(file, offset: offset, count: count, into: sink) }
        } else {
            _ = try camera.read(file, offset: offset, count: count, into: sink)
        }
        return sink.bytes
    }

    // MARK: Writing

    func create(_ path: String) throws(FileSystemError) -> UInt64 {
        if readOnly { throw FileSystemError(EROFS) }
        guard changes.cameraUploads else { throw FileSystemError(EPERM) }
        let catalog = try current()
        let (folder, name) = Self.split(path)
        if catalog.file(atPath: path) != nil || state.withLock({ $0.writing[path] != nil }) { throw FileSystemError(EEXIST) }
        guard catalog.isFolder(folder) else { throw FileSystemError(ENOENT) }
        // The top of a camera with several stores holds the stores, not files.
        guard let storage = session.storageID(ofFolder: folder) else { throw FileSystemError(EACCES) }
        guard changes.uploads(on: storage) else { throw FileSystemError(EROFS) }
        let free: UInt64
        do {
            free = try session.camera.storages().first { $0.id == storage }?.free ?? UInt64.max
        } catch {
            throw failure(error)
        }
        let spool = try WriteSpool(path: path, folder: folder, name: name, limit: free, spoolFolder: spoolFolder)
        state.withLock { $0.writing[path] = spool }
        return register(.writing(spool))
    }

    func write(_ handle: UInt64, offset: UInt64, from buffer: UnsafeRawBufferPointer) throws(FileSystemError) -> Int {
        guard case .writing(let spool)? = state.withLock({ $0.handles[handle] }) else { throw FileSystemError(EBADF) }
        return try spool.write(offset: offset, from: buffer)
    }

    func truncate(_ path: String, size: UInt64, handle: UInt64?) throws(FileSystemError) {
        if let spool = state.withLock({ $0.writing[path] }) {
            try spool.truncate(to: size)
            return
        }
        _ = try attributes(of: path)
        throw FileSystemError(readOnly ? EROFS : EPERM)
    }

    func flush(_ handle: UInt64) throws(FileSystemError) {
        guard case .writing(let spool)? = state.withLock({ $0.handles[handle] }) else { return }
        try send(spool)
    }

    /// Sends a spooled file when it has bytes the camera does not have yet: a new object; after a later
    /// write, the object sent before is deleted and the whole file sent again. A failed send leaves nothing
    /// on the card and is the writer's EIO (at close, where `cp` and every careful program look).
    private func send(_ spool: WriteSpool) throws(FileSystemError) {
        let now = spool.snapshot
        guard now.dirty else { return }
        if now.failed && now.sent == nil && spool.size == 0 { throw FileSystemError(EIO) }
        try checkPresent()
        do {
            if let earlier = now.sent, let file = session.catalog.file(id: earlier) {
                try session.delete(file)
            }
            let made = try session.upload(spool.source(), as: spool.name, into: spool.folder)
            spool.sendEnded(made?.id ?? 0)
            state.withLock { state in
                if state.writing[spool.path] === spool { state.writing[spool.path] = nil }
            }
            log("sent \(spool.path) (\(spool.size) bytes)")
        } catch {
            spool.sendEnded(nil)
            let code = failure(error)
            log("could not send \(spool.path): \(error); nothing of it is on the camera")
            throw FileSystemError(code.errno == ENOSPC ? ENOSPC : EIO)
        }
    }

    func release(_ handle: UInt64) {
        guard let open = state.withLock({ $0.handles.removeValue(forKey: handle) }) else { return }
        guard case .writing(let spool) = open else {
            if case .reading(let stream) = open { stream.close() }
            return
        }
        // The last descriptor of a file whose close did not send it (a flush that was never asked).
        let stillOpen = state.withLock { state in
            state.handles.values.contains { if case .writing(let other) = $0 { other === spool } else { false } }
        }
        if !stillOpen {
            if spool.snapshot.dirty && !spool.snapshot.failed { try? send(spool) }
            state.withLock { state in
                if state.writing[spool.path] === spool { state.writing[spool.path] = nil }
            }
        }
    }

    // MARK: Deleting and folders

    func unlink(_ path: String) throws(FileSystemError) {
        if readOnly { throw FileSystemError(EROFS) }
        if state.withLock({ $0.writing[path] != nil }) { throw FileSystemError(EBUSY) }
        let catalog = try current()
        guard let file = catalog.file(atPath: path) else { throw FileSystemError(ENOENT) }
        if file.isFolder { throw FileSystemError(EISDIR) }
        try checkDeletes(file)
        do {
            try session.delete(file)
        } catch {
            throw failure(error)
        }
        cache.forget(file: file.id)
    }

    func makeFolder(_ path: String) throws(FileSystemError) {
        if readOnly { throw FileSystemError(EROFS) }
        guard changes.cameraUploads else { throw FileSystemError(EPERM) }
        let catalog = try current()
        if catalog.file(atPath: path) != nil || catalog.isFolder(path) { throw FileSystemError(EEXIST) }
        let (folder, name) = Self.split(path)
        guard catalog.isFolder(folder) else { throw FileSystemError(ENOENT) }
        guard let storage = session.storageID(ofFolder: folder) else { throw FileSystemError(EACCES) }
        guard changes.uploads(on: storage) else { throw FileSystemError(EROFS) }
        do {
            try session.makeFolder(name, in: folder)
        } catch {
            throw failure(error)
        }
    }

    /// As the shell's `rmdir`: an empty folder only (not the top, not a store), where the camera deletes.
    func removeFolder(_ path: String) throws(FileSystemError) {
        if readOnly { throw FileSystemError(EROFS) }
        let catalog = try current()
        guard let folder = catalog.file(atPath: path) else { throw FileSystemError(ENOENT) }
        guard folder.isFolder else { throw FileSystemError(ENOTDIR) }
        guard folder.id != 0 else { throw FileSystemError(EACCES) }
        if let inside = catalog.contents(of: path), !inside.isEmpty { throw FileSystemError(ENOTEMPTY) }
        try checkDeletes(folder)
        do {
            try session.delete(folder)
        } catch {
            throw failure(error)
        }
    }

    /// EPERM where the camera cannot delete at all, EROFS where the file's store refuses it.
    private func checkDeletes(_ file: MediaFile) throws(FileSystemError) {
        guard changes.cameraDeletes else { throw FileSystemError(EPERM) }
        guard changes.deletes(on: file.storageID) else { throw FileSystemError(EROFS) }
    }

    // MARK: Failures

    /// The errno for a failure of the camera or the catalog; a camera gone (the link closed, no answer in
    /// time) is said once in the log, and every later call fails with EIO at once.
    private func failure(_ error: Error) -> FileSystemError {
        if let error = error as? FileSystemError { return error }
        if let response = (error as? PTPError)?.responseCode {
            switch response {
            case .invalidObjectHandle, .invalidParentObject: return FileSystemError(ENOENT)
            case .storeFull: return FileSystemError(ENOSPC)
            case .storeReadOnly: return FileSystemError(EROFS)
            case .objectWriteProtected, .accessDenied: return FileSystemError(EACCES)
            case .deviceBusy: return FileSystemError(EBUSY)
            default: return FileSystemError(EIO)
            }
        }
        if error is MediaSession.UploadRefusal { return FileSystemError(EACCES) }
        if let capability = error as? CameraCapabilityError {
            switch capability {
            case .cannotReadRanges: return FileSystemError(EFBIG)
            case .noThumbnail, .notOffered: return FileSystemError(EPERM)
            }
        }
        switch error.failureCategory {
        case .disconnected, .timedOut:
            markGone(error)
            return FileSystemError(EIO)
        case .localIO where error is PTPError, .deviceFault where error is PTPError, .other where error is PTPError:
            // The link broke in a way that reads as bad data (a data phase cut short as the camera died):
            // one cheap request says whether the camera is still there.
            log("a request to the camera failed: \(error)")
            do {
                _ = try session.camera.session.getStorageIDs()
            } catch let probe where (probe as? PTPError)?.responseCode == nil {
                markGone(probe)
            } catch {}
            return FileSystemError(EIO)
        case .notFound: return FileSystemError(ENOENT)
        case .alreadyExists: return FileSystemError(EEXIST)
        case .notSupported: return FileSystemError(ENOTSUP)
        case .busy: return FileSystemError(EBUSY)
        case .cancelled: return FileSystemError(EINTR)
        case .invalidRequest: return FileSystemError(EINVAL)
        case .localIO, .deviceFault, .other: return FileSystemError(EIO)
        }
    }

    /// Notes that the camera is gone (said once in the log): every later call fails with EIO at once.
    private func markGone(_ error: Error) {
        let first = state.withLock { state -> Bool in
            defer { state.gone = state.gone ?? "\(error)" }
            return state.gone == nil
        }
        if first { log("the camera is gone (\(error)): every call now fails with EIO; unmount with fusermount3 -u \(mountPoint)") }
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}

/// One open file being read: its record as it was at open, and its read-ahead; fetches for it take turns
/// (the kernel sends a sequential reader's reads several at once), the background one included.
final class ReadStream: Sendable {
    let file: MediaFile
    private struct State {
        var readAhead = ReadAhead()
        var fetching = false
        /// Released: no more background fetches.
        var closed = false
    }
    private let state = LockedCondition(State())

    init(file: MediaFile) {
        self.file = file
    }

    /// Waits for the stream's fetch in flight (if any), takes the turn, and says what to ask for.
    func beginFetch(offset: UInt64, count: Int, size: UInt64, wholeOnly: Bool) -> (offset: UInt64, count: Int) {
        state.wait(until: nil, for: { !$0.fetching }) { state in
            state.fetching = true
            if wholeOnly { return (0, Int(size)) }
            return state.readAhead.span(offset: offset, count: count, size: size)
        }!
    }

    /// Takes the turn for a background fetch, when one is due and no fetch is in flight: what to ask for.
    func beginBackgroundFetch(size: UInt64) -> (offset: UInt64, count: Int)? {
        state.change { state in
            guard !state.fetching, !state.closed, let span = state.readAhead.background(size: size) else { return nil }
            state.fetching = true
            return span
        }
    }

    /// Gives the turn back after a fetch that brought `count` bytes from `offset` (0: it failed; nil: none
    /// was made, the bytes were there already).
    func endFetch(offset: UInt64, count: Int?) {
        state.change { state in
            state.fetching = false
            if let count { state.readAhead.fetched(offset: offset, count: count) }
        }
    }

    func served(offset: UInt64, count: Int) { state.withLock { $0.readAhead.served(offset: offset, count: count) } }

    /// The file was closed: nothing more is fetched ahead for it.
    func close() { state.withLock { $0.closed = true } }
}
