import Foundation
import Import
import MediaManager
import POSIX
import PTP
import TerminalKit

/// `fetch ... &`: the same download as `fetch` (`MediaSession.fetch`: `.part` files, resume, the clash
/// policy), run on the job's thread with its requests marked background and sized from the measured rate,
/// its progress kept in the job and its results said when it ends.
struct FetchJob: Sendable {
    let session: MediaSession
    /// The files and the local folder each goes to (one group, but for `fetch -r`).
    let groups: [FetchGroup]
    var options: MediaSession.FetchOptions
    let rateLimit: UInt64?
    /// The clock the batch is paced and its rate measured on.
    var clock: any WaitClock = MonotonicClock()

    func run(_ job: Job) -> Job.Ending {
        var options = options
        options.chunkSizing = ChunkSizing()
        let pacer = TransferPacer(clock: clock, limit: rateLimit, stopped: { job.cancellation.isCancelled })
        let started = pacer.now
        let wanted = groups.flatMap(\.files).filter { !$0.isFolder }
        let total = wanted.reduce(UInt64(0)) { $0 + $1.size }
        var summary = BatchSummary()
        var problems: [String] = []
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
                            switch result.outcome {
                            case .success(.downloaded(_, let bytes, let resumedFrom)):
                                summary.fetched += 1
                                summary.bytes += bytes - resumedFrom
                                updates.append(.fetched(result.file))
                                if options.deleteAfter && result.deleteError == nil { updates.append(.removed(path: result.file.path)) }
                            case .success(.skippedExisting):
                                summary.skipped += 1
                            case .failure(let error as DownloadError) where error.cancelledAt != nil:
                                stopped = true
                                updates.append(.stopped(result.file, at: error.cancelledAt ?? 0))
                            case .failure(let error):
                                summary.failed += 1
                                problems.append(JobWords.problem("fetch", result.file, error))
                                if case DownloadError.interrupted(_, _, let at, _, _) = error, at > 0 {
                                    updates.append(.stopped(result.file, at: at))
                                }
                            }
                            if let deleteError = result.deleteError {
                                problems.append(
                                    "fetch: \(SafeText.display(result.file.name)) arrived but was not deleted from the camera: "
                                        + Interpreter.message(for: deleteError))
                            }
                        })
                }
            }
        } catch {
            problems.append("fetch: " + Interpreter.message(for: error))
            summary.failed += 1
        }
        summary.seconds = pacer.now - started
        summary.interrupted = stopped
        let line = ImportBatch.summaryLine(summary, command: "fetch")
            .replacingOccurrences(of: "(already imported)", with: "(already here)")
        let state: Job.State = stopped || job.cancellation.isCancelled ? .killed : problems.isEmpty ? .done : .failed
        return Job.Ending(state: state, summary: line, problems: problems, updates: updates)
    }
}

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

/// The words of a job's problems.
enum JobWords {
    /// `fetch: NAME: why`, or the download's own sentence when it names the file.
    static func problem(_ command: String, _ file: MediaFile, _ error: Error) -> String {
        if case DownloadError.interrupted = error { return "\(command): " + Interpreter.message(for: error) }
        return "\(command): \(SafeText.display(file.name)): " + Interpreter.message(for: error)
    }
}

extension JobWords {
    /// After a failed download: true when the camera no longer answers (one cheap request), so the batch
    /// stops rather than failing every file that is left.
    static func cameraGone(after error: Error, _ session: MediaSession) -> Bool {
        guard case DownloadError.interrupted = error else { return false }
        do {
            _ = try session.camera.session.getDeviceInfo()
            return false
        } catch {
            return error.failureCategory == .disconnected
        }
    }
}
