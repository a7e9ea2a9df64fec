import Import
import MediaManager
import POSIX
import PTP
import TerminalKit

/// `import ... &`: the same run as `import` (`ImportRun`: the plan, `.part` files, groups committed and
/// recorded in the ledger), on the job's thread with its requests marked background and sized from the
/// measured rate. It holds the ledger's runs until it ends, so no other import of this camera overlaps.
struct ImportJob: Sendable {
    let session: MediaSession
    let plan: ImportPlan
    let ledgers: CameraLedgers
    let runs: [LedgerRun]
    var options: ImportRun.Options
    let rateLimit: UInt64?
    /// The clock the batch is paced and its rate measured on.
    var clock: any WaitClock = MonotonicClock()

    func run(_ job: Job) -> Job.Ending {
        defer { for run in runs { run.end() } }
        var options = options
        options.chunkSizing = ChunkSizing()
        var problems: [String] = []
        var updates: [Job.StateUpdate] = []
        var progress = Job.Progress()
        let pacer = TransferPacer(clock: clock, limit: rateLimit, stopped: { job.cancellation.isCancelled })
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
                        case .fetched(let item, _, _):
                            updates.append(.fetched(item.file))
                            progress.filesDone = min(progress.filesDone + 1, progress.filesTotal)
                            job.report(progress)
                        case .skipped: break
                        case .failed(let item, let error): problems.append(JobWords.problem("import", item.file, error))
                        case .notDeleted(let item, let error):
                            problems.append(
                                "import: \(SafeText.display(item.file.name)) is home but was not deleted from the camera: "
                                    + Interpreter.message(for: error))
                        case .deleted(let item): updates.append(.removed(path: item.file.path))
                        case .stopped(let item, let at): updates.append(.stopped(item.file, at: at))
                        case .completed: break
                        case .copyFailed(let item, let destination, let error):
                            problems.append(
                                "import: \(SafeText.display(item.file.name)): no copy in \(SafeText.display(destination)): "
                                    + Interpreter.message(for: error))
                        }
                    },
                    stopAfter: { error in JobWords.cameraGone(after: error, session) })
            }
            for stopped in summary.stoppedDestinations {
                problems.append("import: the backup destination \(SafeText.display(stopped)); it was left for the rest of the import")
            }
            let state: Job.State = summary.interrupted ? .killed : problems.isEmpty ? .done : .failed
            return Job.Ending(
                state: state, summary: ImportBatch.summaryLine(summary, command: "import"), problems: problems,
                updates: updates)
        } catch {
            problems.append("import: " + Interpreter.message(for: error))
            return Job.Ending(state: .failed, summary: "import: stopped", problems: problems, updates: updates)
        }
    }
}
