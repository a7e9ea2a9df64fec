import Foundation
import POSIX
import PTP

/// A new file being written through the mount: its bytes go to a private spool file (mode 0600, in the
/// mount's state folder, unlinked as soon as it is made: nothing is left behind by a crash, nothing is in
/// /tmp), and are sent to the camera whole when the writer closes or syncs it. Bounded by the free space of
/// the camera's store: a write past it fails at once (ENOSPC) rather than at the send.
final class WriteSpool: Sendable {
    /// The file's path in the mount, its folder and name there.
    let path: String
    let folder: String
    let name: String
    /// The most bytes the file may hold (the store's free space when it was created).
    let limit: UInt64
    private let descriptor: Int32
    private let state = Locked(State())

    struct State {
        var size: UInt64 = 0
        /// Written since the last send (or never sent).
        var dirty = true
        /// The object the last send made on the camera.
        var sent: UInt32?
        /// The send failed: the writer heard it; the card holds nothing of the file.
        var failed = false
    }

    init(path: String, folder: String, name: String, limit: UInt64, spoolFolder: String) throws(FileSystemError) {
        self.path = path
        self.folder = folder
        self.name = name
        self.limit = limit
        var made: Int32?
        for attempt in 0..<100 where made == nil {
            let candidate = spoolFolder + "/spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt)"
            do throws(SystemError) {
                made = try systemCall(.open, path: candidate) { open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
                unlink(candidate)
            } catch where error.errno == EEXIST {
                continue
            } catch {
                throw FileSystemError(error.errno)
            }
        }
        guard let made else { throw FileSystemError(EIO) }
        descriptor = made
    }

    /// What a failed call on the spool file names as its path.
    static let spoolName = "(mount spool)"

    deinit { close(descriptor) }

    var snapshot: State { state.withLock { $0 } }
    var size: UInt64 { state.withLock { $0.size } }

    func write(offset: UInt64, from buffer: UnsafeRawBufferPointer) throws(FileSystemError) -> Int {
        guard offset + UInt64(buffer.count) <= limit else { throw FileSystemError(ENOSPC) }
        do throws(SystemError) {
            try LocalDisk.write(descriptor, buffer, at: offset, path: Self.spoolName)
        } catch {
            throw FileSystemError(error.errno)
        }
        let done = buffer.count
        state.withLock { state in
            state.size = max(state.size, offset + UInt64(done))
            state.dirty = true
        }
        return done
    }

    /// Reads back spooled bytes (a writer that reads what it wrote).
    func read(offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        let end = size
        guard offset < end else { return 0 }
        let want = Int(min(UInt64(buffer.count), end - offset))
        do throws(SystemError) {
            return try systemCall(.read, path: Self.spoolName) { pread(descriptor, buffer.baseAddress, want, off_t(offset)) }
        } catch {
            throw FileSystemError(error.errno)
        }
    }

    func truncate(to size: UInt64) throws(FileSystemError) {
        guard size <= limit else { throw FileSystemError(ENOSPC) }
        do throws(SystemError) {
            try LocalDisk.truncate(descriptor, to: size, path: Self.spoolName)
        } catch {
            throw FileSystemError(error.errno)
        }
        state.withLock { state in
            state.size = size
            state.dirty = true
        }
    }

    /// The spooled bytes, from the start, as SendObject's data phase.
    func source() -> DataSource { SpoolSource(descriptor: descriptor, length: size) }

    /// Records how a send ended: the object it made, or a failure.
    func sendEnded(_ handle: UInt32?) {
        state.withLock { state in
            state.sent = handle
            state.dirty = handle == nil
            state.failed = handle == nil
        }
    }
}

/// A spool file read from its start for SendObject (pread: the writer's descriptor is not moved).
private final class SpoolSource: DataSource {
    let descriptor: Int32
    let length: UInt64
    private var position: UInt64 = 0

    init(descriptor: Int32, length: UInt64) {
        self.descriptor = descriptor
        self.length = length
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(UInt64(buffer.count), length - position))
        guard want > 0 else { return 0 }
        let got = try systemCall(.read, path: WriteSpool.spoolName) { pread(descriptor, buffer.baseAddress, want, off_t(position)) }
        guard got > 0 else {
            throw SystemError(.read, path: WriteSpool.spoolName, errno: EIO, detail: "ended after \(position) of \(length) bytes")
        }
        position += UInt64(got)
        return got
    }
}
