import Foundation
import PTP

/// Reads the first bytes of the files a run (an import, a batch fetch) is about to write (each whole, when
/// it fits one request) on a thread of its own, ahead of the run in the run's order: while the run writes,
/// hashes and syncs one file, the next one's request is on the link already, so the link never waits for
/// the disk. Holds at
/// most `maxFiles` results and `maxBytes` bytes not yet taken (at least one). A file the camera refuses
/// (a damaged one: its answer is an error code) fails alone and the reader goes on; any other failure (the
/// link lost, a timeout, Ctrl-C) stops it, and the run reads for itself from there and says what failed.
/// `finish()` stops it and waits for the request in flight, so no request of the run is left on the link
/// when the run returns.
public final class FirstBytesReadAhead: @unchecked Sendable {
    // Safety: everything below `condition` is only touched with it held; `files` and `position` are
    // constant, the camera and the sizing are safe to use from any thread. An NSCondition rather than a
    // Mutex: the reader and the run wait on each other, and check-layers refuses Synchronization (TSan
    // cannot see its futex).
    private let files: [MediaFile]
    private let position: [MediaFile: Int]
    private let condition = NSCondition()
    private var results: [Int: Result<FirstBytes, Error>] = [:]
    private var heldBytes = 0
    /// Results before this index are taken or dropped (a read that ends before it is not kept).
    private var consumed = 0
    /// The next file the reader will read.
    private var next = 0
    private var stopped = false
    private var running = true

    let maxFiles: Int
    let maxBytes: Int

    public init(
        files: [MediaFile], camera: Camera, chunkSize: Int, sizing: ChunkSizing?, maxFiles: Int = 64,
        maxBytes: Int = 16 << 20, cancelled: @escaping @Sendable () -> Bool
    ) {
        self.files = files
        var position: [MediaFile: Int] = [:]
        for (index, file) in files.enumerated() where position[file] == nil { position[file] = index }
        self.position = position
        self.maxFiles = max(1, maxFiles)
        self.maxBytes = maxBytes
        guard !files.isEmpty else {
            running = false
            return
        }
        // The run's priority (a job's requests are background) and its cancellation carry to the reader.
        let priority = PTPSession.currentPriority
        let thread = Thread { [self] in
            let work = {
                camera.session.whileCancellable({ [self] in cancelled() || isStopped }) {
                    self.read(camera: camera, chunkSize: chunkSize, sizing: sizing, cancelled: cancelled)
                }
            }
            if priority == .background { PTPSession.asBackground(work) } else { work() }
            condition.withLock {
                running = false
                condition.broadcast()
            }
        }
        thread.name = "read-ahead"
        thread.start()
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    private func read(camera: Camera, chunkSize: Int, sizing: ChunkSizing?, cancelled: () -> Bool) {
        while true {
            let index: Int? = condition.withLock {
                while !stopped, next < files.count,
                    results.count >= maxFiles || (heldBytes >= maxBytes && !results.isEmpty)
                {
                    condition.wait()
                }
                guard !stopped, next < files.count else { return nil }
                next += 1
                return next - 1
            }
            guard let index, !cancelled() else { return }
            let result = Result {
                try FirstBytes.read(files[index], camera: camera, chunkSize: chunkSize, sizing: sizing)
            }
            let failed = condition.withLock {
                if index >= consumed {
                    results[index] = result
                    if case .success(let first) = result { heldBytes += first.bytes.count }
                }
                condition.broadcast()
                if case .failure(let error) = result { return !Self.cameraAnswered(error) }
                return false
            }
            if failed { return }
        }
    }

    /// True when the camera itself refused the read with a response code: it is still there to ask for the
    /// next file.
    public static func cameraAnswered(_ error: Error) -> Bool {
        if case PTPError.response = error { return true }
        return false
    }

    /// The first bytes of `file`, waiting for them; those of the files before it are dropped (the run
    /// skipped them). Nil when `file` is not among the files, was passed, or the reader stopped before it:
    /// the run reads it itself then.
    public func take(_ file: MediaFile) -> Result<FirstBytes, Error>? {
        guard let index = position[file] else { return nil }
        return condition.withLock {
            guard index >= consumed else { return nil }
            for dropped in consumed..<index { discard(dropped) }
            consumed = index
            condition.broadcast()
            while results[index] == nil && running { condition.wait() }
            consumed = index + 1
            let result = results.removeValue(forKey: index)
            if case .success(let first) = result { heldBytes -= first.bytes.count }
            condition.broadcast()
            return result
        }
    }

    private func discard(_ index: Int) {
        if case .success(let first) = results.removeValue(forKey: index) { heldBytes -= first.bytes.count }
    }

    /// Stops reading and waits until the request in flight, if any, is done.
    public func finish() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            while running { condition.wait() }
            results = [:]
            heldBytes = 0
        }
    }
}
