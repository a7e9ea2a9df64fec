import CommandKit
import Failures
import Foundation
import Import
import MediaManager
import POSIX
import PTP
import TerminalKit
import Words

/// One run of `import` (and of `fetch`'s batches): one progress line for the whole batch on a terminal,
/// each file said only where it matters (a failure, a unique name, everything with `-v`), the session
/// state kept in step, and one summary line at the end.
public final class ImportBatch {
    public let cancellation: Cancellation
    private let host: any BatchHost
    private let session: MediaSession
    private let verbose: Bool
    private let command: String
    private let line: BatchProgressLine
    private var failures = 0
    private var stopped: (item: ImportItem, at: UInt64)?
    private var disconnected: Error?
    private let pacer: TransferPacer
    private var last: BatchProgress?

    public init(host: any BatchHost, session: MediaSession, verbose: Bool, deleteAfter: Bool, command: String = "import") {
        self.host = host
        self.session = session
        self.verbose = verbose
        self.command = command
        let interrupt = host.interrupt
        cancellation = interrupt.cancellation
        line = BatchProgressLine(output: host.output)
        pacer = TransferPacer(
            clock: host.transferClock, limit: host.rateLimit, cancellation: interrupt.cancellation)
        pacer.redraw = { [weak self] in self?.draw(force: true) }
    }

    /// After every chunk: the progress line (with the rate over a window of real time), and the rate limit.
    public func progress(_ p: BatchProgress) {
        pacer.update(moved: p.bytesMoved)
        last = p
        draw(force: false)
        pacer.pace()
    }

    private func draw(force: Bool) {
        guard var p = last else { return }
        p.bytesPerSecond = pacer.bytesPerSecond ?? 0
        line.update(p, at: pacer.now, force: force)
    }

    /// One file's final outcome.
    public func event(_ event: BatchEvent) {
        line.clear()
        switch event {
        case .fetched(let item, let bytes, let resumedFrom, let restarted):
            host.fileFetched(item.file)
            guard verbose || item.renamed || resumedFrom > 0 || restarted != nil else { return }
            var text = "fetched \(SafeText.display(item.file.name)) -> \(SafeText.display(item.destination)) (\(HumanReadable.size(bytes))"
            if resumedFrom > 0 { text += ", continued from \(HumanReadable.size(resumedFrom))" }
            if let (why, kept) = restarted {
                text += "; " + PartRestartWords.clause(why, part: (item.destination as NSString).lastPathComponent + ".part", kept: kept)
            }
            if item.renamed { text += "; a different file has its name there, --force replaces it instead" }
            host.output.note(text + ")")
        case .skipped(let item):
            guard verbose else { return }
            if case .imported(let entry) = item.action {
                let before = item.importedFrom.map { "imported from \(SafeText.display($0))" } ?? "imported before"
                host.output.note("skipped \(SafeText.display(item.file.name)): \(before), to \(SafeText.display(entry.path))")
            } else {
                host.output.note("skipped \(SafeText.display(item.file.name)): already at \(SafeText.display(item.destination))")
            }
        case .failed(let item, let error):
            failures += 1
            if case DownloadError.interrupted = error {
                host.report("\(command): \(ErrorWords.sentence(for: error))" + host.modeHint(for: error))  // names the file
            } else {
                host.report("\(command): \(SafeText.display(item.file.name)): \(ErrorWords.sentence(for: error))")
            }
        case .notDeleted(let item, let error):
            failures += 1
            host.report(
                "\(command): \(SafeText.display(item.file.name)) is home but was not deleted from the camera: "
                    + ErrorWords.sentence(for: error))
        case .deleted(let item):
            host.fileRemoved(path: item.file.path)
            if verbose { host.output.note("deleted \(RemotePath.display(item.file.path)) from the camera") }
        case .copyFailed(let item, let destination, let error):
            failures += 1
            host.report(
                "\(command): \(SafeText.display(item.file.name)): no copy in \(SafeText.display(destination)): "
                    + ErrorWords.sentence(for: error))
        case .noSidecar(let item, let error):
            failures += 1
            host.report(ImportWords.noSidecar(item.file, error, command: command))
        case .completed(let item, let destination, let path):
            guard verbose else { return }
            host.output.note(
                "copied \(SafeText.display(item.file.name)) -> \(SafeText.display(path)) (missing in \(SafeText.display(destination)); from a proven copy, not the camera)")
        case .stopped(let item, let at):
            stopped = (item, at)
            host.fileStopped(item.file, at: at)
        }
    }

    /// True once a failed download showed that the camera no longer answers.
    public var cameraWentAway: Bool { disconnected != nil }

    /// After a failed download: stop the batch when the camera no longer answers (one cheap request).
    public func shouldStop(after error: Error) -> Bool {
        guard disconnected == nil, case DownloadError.interrupted = error else { return false }
        do {
            _ = try session.camera.session.getDeviceInfo()
            return false
        } catch {
            guard error.failureCategory == .disconnected else { return false }
            disconnected = error
            return true
        }
    }

    /// The summary line, and how the batch ended.
    public func finish(_ summary: BatchSummary) -> CommandOutcome {
        line.clear()
        host.output.note(BatchWords.summaryLine(summary, command: command))
        for stopped in summary.stoppedDestinations {
            failures += 1
            host.report("\(command): the backup destination \(SafeText.display(stopped.description)); it was left for the rest of the import")
        }
        if !summary.missingCopies.isEmpty {
            let names = summary.missingCopies
            let shown = names.prefix(5).map(SafeText.display).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            host.report(
                "\(command): \(names.count) file\(names.count == 1 ? " is" : "s are") not in every destination, and stay on the camera: \(shown)")
        }
        if let disconnected {
            host.reportCameraGone(during: command, disconnected)
            return .failed
        }
        if summary.interrupted {
            var text = "\(command): interrupted"
            if let stopped {
                let size = stopped.item.file.size
                text += ": \(SafeText.display(stopped.item.file.name)) stopped at \(HumanReadable.size(stopped.at)) of "
                    + "\(HumanReadable.size(size)), kept as .part"
            }
            text += "; the same '\(command)' again fetches what is left, nothing twice"
            host.report(text, severity: .notice)
            return .interrupted
        }
        return .failed(if: failures)
    }
}
