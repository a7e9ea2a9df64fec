import Failures
import Import
import MediaManager
import POSIX
import PTP

/// `fetch ... &`: the same download as `fetch` (`MediaSession.fetch`: `.part` files, resume, the clash
/// policy), run on the job's thread with its requests marked background and sized from the measured rate,
/// its progress kept in the job and its results said when it ends.
public struct FetchJob: Sendable {
    let session: MediaSession
    /// The files and the local folder each goes to (one group, but for `fetch -r`).
    let groups: [FetchGroup]
    var options: MediaSession.FetchOptions
    let rateLimit: UInt64?
    /// The clock the batch is paced and its rate measured on.
    var clock: any WaitClock

    public init(
        session: MediaSession, groups: [FetchGroup], options: MediaSession.FetchOptions, rateLimit: UInt64?,
        clock: any WaitClock = MonotonicClock()
    ) {
        self.session = session
        self.groups = groups
        self.options = options
        self.rateLimit = rateLimit
        self.clock = clock
    }

    public func run(_ job: Job) -> Job.Ending {
        var options = options
        options.chunkSizing = ChunkSizing()
        let pacer = TransferPacer(clock: clock, limit: rateLimit, cancellation: job.cancellation)
        let started = pacer.now
        let wanted = groups.flatMap(\.files).filter { !$0.isFolder }
        let total = wanted.reduce(UInt64(0)) { $0 + $1.size }
        var summary = BatchSummary()
        var problems: [Job.Problem] = []
        var updates: [Job.StateUpdate] = []
        var stopped = false
        var meter = JobMeter(filesTotal: wanted.count, bytesTotal: total)
        pacer.redraw = { job.report(meter.progress(bytesPerSecond: pacer.bytesPerSecond)) }
        do {
            for group in groups where !job.cancellation.isCancelled {
                _ = try PTPSession.asBackground {
                    try session.fetch(
                        group.files, to: group.folder, options: options, cancellation: job.cancellation,
                        progress: { p in
                            pacer.update(p)
                            job.report(meter.update(p, bytesPerSecond: pacer.bytesPerSecond))
                            pacer.pace()
                        },
                        each: { result in
                            meter.fileEnded()
                            summary.count(result)
                            switch result.outcome {
                            case .success(.downloaded):
                                updates.append(.fetched(result.file))
                                if options.deleteAfter && result.deleteError == nil { updates.append(.removed(path: result.file.path)) }
                            case .success(.skippedExisting):
                                break
                            case .failure(let error as DownloadError) where error.cancelledAt != nil:
                                stopped = true
                                updates.append(.stopped(result.file, at: error.cancelledAt ?? 0))
                            case .failure(let error):
                                problems.append(.failed(result.file, error))
                                if case DownloadError.interrupted(_, _, let at, _, _) = error, at > 0 {
                                    updates.append(.stopped(result.file, at: at))
                                }
                            }
                            if let deleteError = result.deleteError { problems.append(.notDeleted(result.file, deleteError)) }
                        })
                }
            }
        } catch {
            problems.append(.stopped(error))
            summary.failed += 1
        }
        summary.seconds = pacer.now - started
        summary.interrupted = stopped
        let state: Job.State = stopped || job.cancellation.isCancelled ? .killed : problems.isEmpty ? .done : .failed
        return Job.Ending(state: state, command: "fetch", summary: summary, problems: problems, updates: updates)
    }
}
