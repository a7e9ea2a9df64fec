import MediaManager

/// A job's progress over its whole batch, from the per-file progress a download reports.
struct JobMeter {
    private var progress: Job.Progress
    private var currentName: String?
    private var finishedBytes: UInt64 = 0
    private var currentBytes: UInt64 = 0

    init(filesTotal: Int, bytesTotal: UInt64) {
        progress = Job.Progress(filesTotal: filesTotal, bytesTotal: bytesTotal)
    }

    /// After a chunk of the file `p` names, with the batch's rate now (`TransferPacer`).
    mutating func update(_ p: TransferProgress, bytesPerSecond: Double?) -> Job.Progress {
        if p.name != currentName {
            finishedBytes += currentBytes
            currentName = p.name
        }
        currentBytes = p.bytesDone
        progress.bytesDone = min(finishedBytes + currentBytes, progress.bytesTotal)
        progress.current = p.name
        return self.progress(bytesPerSecond: bytesPerSecond)
    }

    /// The progress so far with the rate now (while the rate limit holds the batch, the rate moves on).
    mutating func progress(bytesPerSecond: Double?) -> Job.Progress {
        progress.bytesPerSecond = bytesPerSecond ?? 0
        return progress
    }

    /// One file's result arrived.
    mutating func fileEnded() { progress.filesDone = min(progress.filesDone + 1, progress.filesTotal) }
}
