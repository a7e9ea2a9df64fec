import Import
import MediaManager
import POSIX
import PTP

/// `import ... &`: the same run as `import` (`ImportRun`: the plan, `.part` files, groups committed and
/// recorded in the ledger), on the job's thread with its requests marked background and sized from the
/// measured rate. It holds the ledger's runs until it ends, so no other import of this camera overlaps.
public struct ImportJob: Sendable {
    let session: MediaSession
    let plan: ImportPlan
    let ledgers: CameraLedgers
    let runs: [LedgerRun]
    var options: ImportRun.Options
    let rateLimit: UInt64?
    /// The clock the batch is paced and its rate measured on.
    var clock: any WaitClock

    public init(
        session: MediaSession, plan: ImportPlan, ledgers: CameraLedgers, runs: [LedgerRun], options: ImportRun.Options,
        rateLimit: UInt64?, clock: any WaitClock = MonotonicClock()
    ) {
        self.session = session
        self.plan = plan
        self.ledgers = ledgers
        self.runs = runs
        self.options = options
        self.rateLimit = rateLimit
        self.clock = clock
    }

    public func run(_ job: Job) -> Job.Ending {
        defer { for run in runs { run.end() } }
        var options = options
        options.chunkSizing = ChunkSizing()
        var problems: [Job.Problem] = []
        var updates: [Job.StateUpdate] = []
        var progress = Job.Progress()
        let pacer = TransferPacer(clock: clock, limit: rateLimit, cancellation: job.cancellation)
        pacer.redraw = {
            progress.bytesPerSecond = pacer.bytesPerSecond ?? 0
            job.report(progress)
        }
        do {
            let summary = try PTPSession.asBackground {
                try ImportRun(session: session, plan: plan, ledgers: ledgers, options: options).run(
                    cancellation: job.cancellation,
                    progress: { p in
                        pacer.update(moved: p.bytesMoved)
                        progress = Job.Progress(
                            filesDone: p.filesDone, filesTotal: p.filesTotal, bytesDone: p.bytesDone,
                            bytesTotal: p.bytesTotal, bytesPerSecond: pacer.bytesPerSecond ?? 0, current: p.current)
                        job.report(progress)
                        pacer.pace()
                    },
                    event: { event in
                        switch event {
                        case .fetched(let item, _, _, _):
                            updates.append(.fetched(item.file))
                            progress.filesDone = min(progress.filesDone + 1, progress.filesTotal)
                            job.report(progress)
                        case .skipped: break
                        case .failed(let item, let error): problems.append(.failed(item.file, error))
                        case .notDeleted(let item, let error): problems.append(.notDeleted(item.file, error))
                        case .deleted(let item): updates.append(.removed(path: item.file.path))
                        case .stopped(let item, let at): updates.append(.stopped(item.file, at: at))
                        case .completed: break
                        case .noSidecar(let item, let error): problems.append(.noSidecar(item.file, error))
                        case .copyFailed(let item, let destination, let error):
                            problems.append(.noCopy(item.file, destination: destination, error))
                        }
                    },
                    stopAfter: { error in session.isGone(after: error) })
            }
            problems += summary.stoppedDestinations.map(Job.Problem.destinationLeft)
            let state: Job.State = summary.interrupted ? .killed : problems.isEmpty ? .done : .failed
            return Job.Ending(state: state, command: "import", summary: summary, problems: problems, updates: updates)
        } catch {
            problems.append(.stopped(error))
            return Job.Ending(state: .failed, command: "import", summary: nil, problems: problems, updates: updates)
        }
    }
}
