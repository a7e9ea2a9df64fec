import Foundation
import MediaManager
import POSIX
import TerminalKit
import Thumbnails

extension CommandContext {
    /// Queues the thumbnails of `files` (each once) on the session's thumbnail queue, all at once, and hands
    /// them to `body` in order as they arrive: `body` gets the position among the files, the file and its
    /// thumbnail or why there is none (see `ThumbnailResolver`). Ctrl-C cancels what is still queued (and a
    /// running ffmpeg), says so and ends `.interrupted`; a camera that went away is reported and closed
    /// (`.failed`).
    func eachThumbnail(
        of files: [MediaFile], session: MediaSession, command: String, wantsOrientation: Bool,
        _ body: (Int, MediaFile, Result<Thumbnail, Error>) -> Void
    ) -> CommandOutcome {
        var seen = Set<UInt32>()
        let files = files.filter { seen.insert($0.id).inserted }
        let cancellation = CancellationFlag()
        var resolver = ThumbnailResolver(
            session: session, keyframes: KeyframeDecoder.find(environment: environment), cancellation: cancellation)
        resolver.wantsOrientation = wantsOrientation
        let arrivals = ThumbnailArrivals()
        for file in files {
            session.thumbnails.enqueue(file.id) { [resolver] id, result in
                arrivals.deliver(id, resolver.resolve(file, device: result))
            }
        }
        func stop() {
            cancellation.cancel()
            session.thumbnails.cancelAll()
        }
        for (index, file) in files.enumerated() {
            // Asked before each file, not only while waiting: thumbnails that are already in must not keep a
            // sheet drawing after Ctrl-C.
            guard !interrupt.isPending, let result = arrivals.take(file.id, interrupt: interrupt) else {
                stop()
                report("\(command): interrupted", severity: .notice)
                return .interrupted
            }
            if case .failure(let error) = result, Interpreter.isDisconnect(error) {
                stop()
                reportFailure(of: command, error)
                return .failed
            }
            body(index, file, result)
        }
        return .success
    }
}

/// Thumbnails arriving from the queue's worker thread, waited for in order on the shell's thread.
final class ThumbnailArrivals: Sendable {
    private let results = LockedCondition([UInt32: Result<Thumbnail, any Error>]())

    func deliver(_ id: UInt32, _ result: Result<Thumbnail, any Error>) {
        results.change { $0[id] = result }
    }

    /// The thumbnail of `id` once it arrived (forgotten here, so a sheet of hundreds does not keep them all),
    /// or nil when Ctrl-C came first.
    func take(_ id: UInt32, interrupt: any InterruptSource) -> Result<Thumbnail, any Error>? {
        while !interrupt.isPending {
            // Woken by each arrival; the bound is only so that Ctrl-C is noticed.
            if let result = results.wait(until: .after(0.05), for: { $0[id] != nil }, then: { $0.removeValue(forKey: id) }) {
                return result
            }
        }
        return nil
    }
}
