import MediaManager
import POSIX

/// The thumbnails of many files, all asked of the session's thumbnail queue at once and taken in order as
/// they arrive (each through `ThumbnailResolver`'s fallbacks). `cancel()` drops what is still queued and
/// stops a running ffmpeg.
public final class ThumbnailStream: Sendable {
    /// The files asked for, each once, in order.
    public let files: [MediaFile]
    private let session: MediaSession
    private let cancellation = Cancellation()
    private let results = LockedCondition([UInt32: Result<Thumbnail, any Error>]())

    public init(of files: [MediaFile], session: MediaSession, keyframes: KeyframeDecoder?, wantsOrientation: Bool) {
        var seen = Set<UInt32>()
        self.files = files.filter { seen.insert($0.id).inserted }
        self.session = session
        var resolver = ThumbnailResolver(session: session, keyframes: keyframes, cancellation: cancellation)
        resolver.wantsOrientation = wantsOrientation
        for file in self.files {
            session.thumbnails.enqueue(file.id) { [resolver, results] id, result in
                let resolved = resolver.resolve(file, device: result)
                results.change { $0[id] = resolved }
            }
        }
    }

    /// The thumbnail of `file` (or why there is none) once it arrived, forgotten here so that a sheet of
    /// hundreds does not keep them all; nil when `stop` said so first (asked at least every 50 ms).
    public func take(_ file: MediaFile, cancellation stop: Cancellation) -> Result<Thumbnail, any Error>? {
        while !stop.isCancelled {
            // Woken by each arrival; the bound is only so that a stop is noticed.
            if let result = results.wait(until: .after(0.05), for: { $0[file.id] != nil }, then: { $0.removeValue(forKey: file.id) }) {
                return result
            }
        }
        return nil
    }

    /// Drops the thumbnails still queued and stops a running ffmpeg.
    public func cancel() {
        cancellation.cancel()
        session.thumbnails.cancelAll()
    }
}
