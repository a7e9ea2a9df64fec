import Foundation
import MediaManager

/// fetch (get): downloads through `.part` files, with a progress line on a terminal, Ctrl-C keeping the
/// `.part` and leaving the selection's offset where it stopped, and an optional rate limit.
extension Interpreter {
    func fetch(_ invocation: Invocation) throws {
        let session = try requireCamera()
        let catalog = try loadedCatalog()
        let files = try files(for: invocation.arguments, catalog: catalog)
        let folder = downloadFolder(invocation.value(of: .output))
        if LocalDisk.exists(folder) && !LocalDisk.isFolder(folder) {
            throw CommandError("\(SafeText.display(folder)) is not a folder")
        }

        var options = MediaSession.FetchOptions()
        options.overwrite = invocation.has(.force)
        options.onlyNew = invocation.has(.new)
        options.deleteAfter = invocation.has(.deleteAfter)
        // `offset N` moves the selected file's start back over what its .part (in this destination) holds;
        // any other offset only reports what a .part held, and the fetch continues the one it writes to.
        if files.count == 1, let only = files.first, let selected = state.selection, selected.file.path == only.path,
            selected.isRewind, let onDisk = partialSize(of: only, in: folder), selected.offset < onDisk
        {
            options.startOffset = selected.offset
        }
        let limit = state.settings.rateLimit
        if let limit { options.chunkSize = Int(min(max(limit / 8, 64 << 10), 8 << 20)) }

        let interrupt = self.interrupt
        let cancellation = CancellationFlag(external: { interrupt.isPending })
        let progress = TransferDisplay(output: output, rateLimit: limit, interrupt: interrupt)
        var failures = 0
        var stopped: (file: MediaFile, at: UInt64)?
        var disconnected: Error?

        let results = try session.fetch(
            files, to: folder, options: options, cancellation: cancellation,
            progress: { progress.update($0) },
            each: { result in
                progress.finish(result)
                switch result.outcome {
                case .success(.downloaded(let path, let bytes, let resumedFrom)):
                    var line = "fetched \(SafeText.display(result.file.name)) -> \(SafeText.display(path))"
                    line += " (\(HumanReadable.size(bytes))"
                    if resumedFrom > 0 { line += ", continued from \(HumanReadable.size(resumedFrom))" }
                    self.output.line(line + ")")
                    self.state.fetchCompleted(result.file)
                    if options.deleteAfter && result.deleteError == nil {
                        self.output.line("deleted \(RemotePath.display(result.file.path)) from the camera")
                        self.state.fileRemoved(path: result.file.path)
                    }
                case .success(.skippedExisting(let path)):
                    self.output.line("skipped \(SafeText.display(result.file.name)): \(SafeText.display(path)) is already here")
                case .failure(DownloadError.cancelled(_, let at)):
                    stopped = (result.file, at)
                case .failure(let error):
                    failures += 1
                    if disconnected == nil, case DownloadError.device = error, !self.cameraAnswers(session) {
                        // Said once, after the batch, with how to reconnect.
                        disconnected = error
                        cancellation.cancel()
                    } else if case DownloadError.device = error {
                        self.report("fetch: \(Self.message(for: error))" + self.modeHint(for: error))  // names the file
                    } else {
                        self.report("fetch: \(SafeText.display(result.file.name)): \(Self.message(for: error))")
                    }
                    if let kept = self.partialSize(of: result.file, in: folder), kept > 0 {
                        self.state.fetchStopped(result.file, at: kept)
                    }
                }
                if let deleteError = result.deleteError {
                    failures += 1
                    self.report(
                        "fetch: \(SafeText.display(result.file.name)) arrived but was not deleted from the camera: "
                            + Self.message(for: deleteError))
                }
            })

        if let disconnected {
            reportFailure(of: "fetch", PTPDisconnect(underlying: disconnected))
            throw FailureReported()
        }
        if let stopped {
            state.fetchStopped(stopped.file, at: stopped.at)
            let size = stopped.file.size
            let percent = size == 0 ? 100 : Int(Double(stopped.at) / Double(size) * 100)
            let name = SafeText.display(stopped.file.name)
            let skipped = files.count - results.count
            report(
                "fetch: interrupted: \(name) stopped at \(HumanReadable.size(stopped.at)) of \(HumanReadable.size(size)) "
                    + "(\(percent)%); \(name).part is kept and 'fetch' continues it"
                    + (skipped > 0 ? " (\(skipped) more file\(skipped == 1 ? "" : "s") not fetched)" : ""),
                severity: .notice)
            throw CommandInterrupted()
        }
        let notStarted = files.count - results.count
        if notStarted > 0 && interrupt.isPending {
            report(
                "fetch: interrupted between files; \(notStarted) file\(notStarted == 1 ? " was" : "s were") not fetched",
                severity: .notice)
            throw CommandInterrupted()
        }
        if failures > 0 { throw FailureReported() }
    }

    /// After a failed read: does the camera still answer? (One cheap request, only on the failure path.)
    func cameraAnswers(_ session: MediaSession) -> Bool {
        do {
            _ = try session.camera.session.getDeviceInfo()
            return true
        } catch {
            return !Self.isDisconnect(error)
        }
    }
}

/// A dropped connection found while a download failed.
struct PTPDisconnect: Error, CustomStringConvertible {
    let underlying: Error
    var description: String { Interpreter.message(for: underlying) }
}

/// The progress line of a fetch (redrawn on a terminal, nothing in batch mode) and the rate limit.
final class TransferDisplay {
    private let output: ShellOutput
    private let rateLimit: UInt64?
    private let interrupt: any InterruptSource
    private var meter: ProgressMeter?
    private var name: String?
    private var lastDone: UInt64 = 0
    private var throttleStart: (time: Double, bytes: UInt64)?

    init(output: ShellOutput, rateLimit: UInt64?, interrupt: any InterruptSource) {
        self.output = output
        self.rateLimit = rateLimit
        self.interrupt = interrupt
    }

    /// Called after every chunk of a download.
    func update(_ progress: TransferProgress) {
        let now = ProcessInfo.processInfo.systemUptime
        if progress.name != name {
            clearLine()
            name = progress.name
            throttleStart = (now, progress.bytesDone)
            if let write = output.progress {
                // Two cells spare for the ^C the terminal echoes when the user interrupts.
                let width = max(20, (output.terminalColumns ?? 80) - 2)
                meter = ProgressMeter(
                    name: progress.name, total: progress.totalBytes, isTerminal: true, width: { width }, write: write)
            }
        }
        lastDone = progress.bytesDone
        meter?.update(done: progress.bytesDone, at: now)
        throttle(progress.bytesDone, now: now)
    }

    /// Keeps the download under the rate limit: waits until the bytes so far are due, or Ctrl-C.
    private func throttle(_ done: UInt64, now: Double) {
        guard let rateLimit, let start = throttleStart, done > start.bytes else { return }
        let due = start.time + Double(done - start.bytes) / Double(rateLimit)
        if due > now { _ = interrupt.waitForInterrupt(upTo: due - now) }
    }

    /// Clears the progress line before a result is printed. Results of a batch arrive in groups (whole
    /// files are renamed after one sync), so the line may belong to a later file: it is then redrawn by
    /// that file's next update, below the results.
    func finish(_ result: MediaSession.FileResult) {
        clearLine()
        if name == result.file.name {
            meter = nil
            name = nil
        }
    }

    /// Erases the transient progress line (on a terminal).
    private func clearLine() {
        guard meter != nil, let write = output.progress else { return }
        write("\r\u{1B}[K")
    }
}
