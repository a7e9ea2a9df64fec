import Foundation
import POSIX
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
public final class FirstBytesReadAhead: Sendable {
    private struct State {
        var results: [Int: Result<FirstBytes, Error>] = [:]
        var heldBytes = 0
        /// Results before this index are taken or dropped (a read that ends before it is not kept).
        var consumed = 0
        /// The next file the reader will read.
        var next = 0
        var stopped = false
        var running = true

        /// The reader may start its next read: stopped, done, or room for one more result.
        func readerMayGo(count: Int, maxFiles: Int, maxBytes: Int) -> Bool {
            stopped || next >= count || (results.count < maxFiles && (heldBytes < maxBytes || results.isEmpty))
        }

        mutating func discard(_ index: Int) {
            if case .success(let first) = results.removeValue(forKey: index) { heldBytes -= first.bytes.count }
        }
    }

    private let files: [MediaFile]
    private let position: [MediaFile: Int]
    /// The reader and the run wait on each other through it.
    private let state = LockedCondition(State())

    let maxFiles: Int
    let maxBytes: Int

    public init(
        files: [MediaFile], camera: Camera, chunkSize: Int, sizing: ChunkSizing?, maxFiles: Int = 64,
        maxBytes: Int = 16 << 20, cancellation: Cancellation
    ) {
        self.files = files
        var position: [MediaFile: Int] = [:]
        for (index, file) in files.enumerated() where position[file] == nil { position[file] = index }
        self.position = position
        self.maxFiles = max(1, maxFiles)
        self.maxBytes = maxBytes
        guard !files.isEmpty else {
            state.withLock { $0.running = false }
            return
        }
        // The run's priority (a job's requests are background) and its cancellation carry to the reader.
        let priority = PTPSession.currentPriority
        let thread = Thread { [self] in
            let work = {
                camera.session.whileCancellable(Cancellation(when: { [self] in cancellation.isCancelled || isStopped })) {
                    self.read(camera: camera, chunkSize: chunkSize, sizing: sizing, cancellation: cancellation)
                }
            }
            if priority == .background { PTPSession.asBackground(work) } else { work() }
            state.change { $0.running = false }
        }
        thread.name = "read-ahead"
        thread.start()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func read(camera: Camera, chunkSize: Int, sizing: ChunkSizing?, cancellation: Cancellation) {
        let (count, maxFiles, maxBytes) = (files.count, self.maxFiles, self.maxBytes)
        while true {
            let index: Int? = state.wait(
                until: nil,
                for: { $0.readerMayGo(count: count, maxFiles: maxFiles, maxBytes: maxBytes) },
                then: { state -> Int? in
                    guard !state.stopped, state.next < count else { return nil }
                    state.next += 1
                    return state.next - 1
                }) ?? nil
            guard let index, !cancellation.isCancelled else { return }
            let result = Result {
                try FirstBytes.read(files[index], camera: camera, chunkSize: chunkSize, sizing: sizing)
            }
            state.change { state in
                guard index >= state.consumed else { return }
                state.results[index] = result
                if case .success(let first) = result { state.heldBytes += first.bytes.count }
            }
            if case .failure(let error) = result, !Self.cameraAnswered(error) { return }
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
        let ahead = state.change { state -> Bool in
            guard index >= state.consumed else { return false }
            for dropped in state.consumed..<index { state.discard(dropped) }
            state.consumed = index
            return true
        }
        guard ahead else { return nil }
        return state.wait(
            until: nil, for: { $0.results[index] != nil || !$0.running },
            then: { state -> Result<FirstBytes, Error>? in
                state.consumed = index + 1
                let result = state.results.removeValue(forKey: index)
                if case .success(let first) = result { state.heldBytes -= first.bytes.count }
                return result
            }) ?? nil
    }

    /// Stops reading and waits until the request in flight, if any, is done.
    public func finish() {
        state.change { $0.stopped = true }
        _ = state.wait(until: nil, for: { !$0.running }, then: { state in
            state.results = [:]
            state.heldBytes = 0
        })
    }
}
