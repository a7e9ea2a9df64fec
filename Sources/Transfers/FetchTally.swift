import Foundation
import Import
import MediaManager

/// Where a batch of downloads stands, from its files' progress as they report it: the file in progress,
/// its place in the batch, and the bytes of the whole batch so far (files skipped as already here count
/// as done).
public struct FetchTally {
    /// The batch's files (folders left out), in the order they are fetched.
    public let files: [MediaFile]
    /// Their bytes, summed once (not at every chunk: that made a batch of many small files quadratic).
    public let totalBytes: UInt64
    private var current: (name: String, index: Int)?
    private var bytesBefore: UInt64 = 0
    /// The bytes of the file in progress so far.
    private var currentBytes: UInt64 = 0

    public init(_ files: [MediaFile]) {
        self.files = files.filter { !$0.isFolder }
        totalBytes = self.files.reduce(UInt64(0)) { $0 + $1.size }
    }

    /// After every chunk of a download.
    public mutating func update(_ progress: TransferProgress) {
        if current?.name != progress.name {
            var index = current.map { $0.index + 1 } ?? 0
            if let c = current { bytesBefore += files[c.index].size }
            while index < files.count - 1 && files[index].name != progress.name {
                bytesBefore += files[index].size  // skipped as already here
                index += 1
            }
            current = (progress.name, index)
        }
        currentBytes = progress.bytesDone
    }

    /// The batch's figures at `bytesPerSecond` after `elapsed` seconds; nil before the first chunk.
    public func progress(bytesPerSecond: Double, elapsed: Double) -> BatchProgress? {
        guard let current else { return nil }
        return BatchProgress(
            filesDone: current.index, filesTotal: files.count, bytesDone: bytesBefore + currentBytes,
            bytesTotal: totalBytes, bytesPerSecond: bytesPerSecond, elapsed: elapsed, current: current.name)
    }
}

extension BatchSummary {
    /// Counts one file's result of a fetch, the one way every fetch's summary counts (at the prompt and as a
    /// job): the bytes this run wrote for it (a stopped file's kept in its `.part`, said as such), fetched
    /// (renamed when a different file had its name), skipped as already here, or failed; a file Ctrl-C
    /// stopped is none of these (the batch says it was interrupted).
    public mutating func count(_ result: MediaSession.FileResult) {
        bytes += result.bytesWritten
        switch result.outcome {
        case .success(.downloaded(let path, _, _)):
            fetched += 1
            if (path as NSString).lastPathComponent != LocalFileName.sanitize(result.file.name) { renamed += 1 }
        case .success(.skippedExisting):
            skipped += 1
        case .failure(let error):
            bytesKept += result.bytesWritten
            if (error as? DownloadError)?.cancelledAt == nil { failed += 1 }
        }
    }
}
