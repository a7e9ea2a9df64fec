import CommandKit
import Failures
import Foundation
import Import
import MediaManager
import POSIX
import PTP
import TerminalKit
import Words

/// One run of `fetch`: says each file's result as it arrives, keeps the session state in step (offsets of
/// kept `.part` files, deleted files), and at the end says how the batch stopped: a camera that went away
/// (once, with how to reconnect), Ctrl-C in a file or between files, or failures already reported.
public final class FetchBatch {
    public let cancellation: Cancellation
    public let display: TransferDisplay
    private let host: any BatchHost
    private let session: MediaSession
    /// Where the files being fetched now go (`fetch -r` moves it from group to group).
    public var folder: String
    private let deleteAfter: Bool
    private let verbose: Bool
    private var failures = 0
    /// For the summary line of a batch.
    private var summary = BatchSummary()
    private let started: Double
    /// The batch's progress line, for more than one file: files and bytes of the whole batch.
    private var batchLine: BatchProgressLine?
    private var tally = FetchTally([])
    /// The file Ctrl-C stopped in, and how far it got.
    private var stopped: (file: MediaFile, at: UInt64)?
    /// The failure that turned out to be the camera gone; the rest of the batch is cancelled.
    private var disconnected: Error?

    public init(host: any BatchHost, session: MediaSession, folder: String, options: MediaSession.FetchOptions, verbose: Bool = false) {
        self.host = host
        self.verbose = verbose
        self.session = session
        self.folder = folder
        deleteAfter = options.deleteAfter
        let interrupt = host.interrupt
        cancellation = interrupt.cancellation
        let pacer = TransferPacer(
            clock: host.transferClock, limit: host.rateLimit, cancellation: interrupt.cancellation)
        display = TransferDisplay(output: host.output, pacer: pacer)
        started = pacer.now
    }

    /// Shows one progress line for the whole batch when it has more than one file.
    public func showBatch(_ files: [MediaFile]) {
        guard files.count > 1 else { return }
        tally = FetchTally(files)
        batchLine = BatchProgressLine(output: host.output)
        display.showsMeter = false
        display.pacer.redraw = { [weak self] in self?.drawBatchLine(force: true) }
    }

    /// After every chunk of a download.
    public func update(_ progress: TransferProgress) {
        guard batchLine != nil else { return display.update(progress) }
        display.pacer.update(progress)
        tally.update(progress)
        drawBatchLine(force: false)
        display.pacer.pace()
    }

    /// The batch's line with the bytes so far and the rate now (`force`: even if one was drawn just before).
    private func drawBatchLine(force: Bool) {
        let now = display.pacer.now
        guard let batchLine, let progress = tally.progress(bytesPerSecond: display.pacer.bytesPerSecond ?? 0, elapsed: now - started)
        else { return }
        batchLine.update(progress, at: now, force: force)
    }

    /// One file's result, as the download reports it.
    public func record(_ result: MediaSession.FileResult) {
        display.finish(result)
        batchLine?.clear()
        summary.count(result)
        switch result.outcome {
        case .success(.downloaded(let path, let bytes, let resumedFrom)):
            downloaded(result, to: path, bytes: bytes, resumedFrom: resumedFrom)
        case .success(.skippedExisting(let path)):
            // One file named is said either way; a batch counts them in its summary.
            if verbose || batchLine == nil {
                host.output.note(
                    "skipped \(SafeText.display(result.file.name)): \(SafeText.display(path)) is already here")
            }
        case .failure(let error as DownloadError) where error.cancelledAt != nil:
            stopped = (result.file, error.cancelledAt ?? 0)
        case .failure(let error):
            failed(result.file, error)
        }
        if let deleteError = result.deleteError {
            failures += 1
            host.report(
                "fetch: \(SafeText.display(result.file.name)) arrived but was not deleted from the camera: "
                    + ErrorWords.sentence(for: deleteError))
        }
    }

    private func downloaded(_ result: MediaSession.FileResult, to path: String, bytes: UInt64, resumedFrom: UInt64) {
        var line = "fetched \(SafeText.display(result.file.name)) -> \(SafeText.display(path))"
        line += " (\(HumanReadable.size(bytes))"
        if resumedFrom > 0 { line += ", continued from \(HumanReadable.size(resumedFrom))" }
        if let (why, kept) = result.restarted {
            line += "; " + PartRestartWords.clause(why, part: (path as NSString).lastPathComponent + ".part", kept: kept)
        }
        if let deviceName = result.file.deviceName {
            line += "; the camera calls it \(SafeText.display(deviceName))"
        }
        if result.replacedExisting { line += "; replaced the different file that was there (--force)" }
        if (path as NSString).lastPathComponent != LocalFileName.sanitize(result.file.name) {
            line += "; a different file has its name here, fetch --force replaces it instead"
        }
        host.output.note(line + ")")
        host.fileFetched(result.file)
        if deleteAfter && result.deleteError == nil {
            host.output.note("deleted \(RemotePath.display(result.file.path)) from the camera")
            host.fileRemoved(path: result.file.path)
        }
    }

    /// A failed file: the camera gone is kept for the end (and the rest cancelled); any other failure is one
    /// line now. What its `.part` kept becomes the file's offset.
    private func failed(_ file: MediaFile, _ error: Error) {
        failures += 1
        if disconnected == nil, session.isGone(after: error) {
            disconnected = error
            cancellation.cancel()
        } else if case DownloadError.interrupted = error {
            host.report("fetch: \(ErrorWords.sentence(for: error))" + host.modeHint(for: error))  // names the file
        } else {
            host.report("fetch: \(SafeText.display(file.name)): \(ErrorWords.sentence(for: error))")
        }
        if let kept = LocalDisk.regularFileSize(LocalDisk.join(folder, LocalFileName.sanitize(file.name) + ".part")), kept > 0 {
            host.fileStopped(file, at: kept)
        }
    }

    /// How the batch ended, said once: `asked` files were named, `answered` got a result.
    public func finish(asked: Int, answered: Int) -> CommandOutcome {
        batchLine?.clear()
        if asked > 1 {
            summary.seconds = display.pacer.now - started
            summary.interrupted = stopped != nil
            host.output.note(BatchWords.summaryLine(summary, command: "fetch").replacingOccurrences(of: "(already imported)", with: "(already here)"))
        }
        if let disconnected {
            host.reportCameraGone(during: "fetch", disconnected)
            return .failed
        }
        let notStarted = asked - answered
        if let stopped {
            host.fileStopped(stopped.file, at: stopped.at)
            let size = stopped.file.size
            let percent = size == 0 ? 100 : Int(Double(stopped.at) / Double(size) * 100)
            let name = SafeText.display(stopped.file.name)
            // Where, when it is not the local folder (a download-dir, -o, or a tree of fetch -r).
            let full = LocalDisk.absolute(folder)
            let keptWhere = full == LocalDisk.currentFolder ? "" : " in \(SafeText.display(full))"
            host.report(
                "fetch: interrupted: \(name) stopped at \(HumanReadable.size(stopped.at)) of \(HumanReadable.size(size)) "
                    + "(\(percent)%); \(name).part is kept" + keptWhere + " and "
                    + (asked == 1 ? "'fetch' continues it" : "the same fetch again continues it (files already here are skipped)")
                    + (notStarted > 0 ? " (\(notStarted) more file\(notStarted == 1 ? "" : "s") not fetched)" : ""),
                severity: .notice)
            return .interrupted
        }
        if notStarted > 0 && host.interrupt.isPending {
            host.report(
                "fetch: interrupted between files; \(notStarted) file\(notStarted == 1 ? " was" : "s were") not fetched",
                severity: .notice)
            return .interrupted
        }
        return .failed(if: failures)
    }
}
