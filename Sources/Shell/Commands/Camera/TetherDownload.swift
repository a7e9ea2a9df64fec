import CommandKit
import Foundation
import Import
import MediaManager
import POSIX
import TerminalKit
import Transfers

extension OptionName {
    static let fetch: OptionName = "fetch"
}

/// Brings home the files a shot produced (`capture --fetch`, `watch --fetch`) the way `import` does: through
/// the destination pattern (`--to`, else the download folder), each file's `.part`, the clash policy, the
/// capture time as the file's time, and the camera's import ledger, so a file imported before (by `import`
/// or an earlier `watch`) is not fetched twice.
struct TetherDownload {
    /// What one call brought: the local paths of the files downloaded now, in order.
    struct Outcome {
        var fetched: [String] = []
        var summary: BatchSummary
        /// How the batch ended, as `import` says it (a failure, Ctrl-C, the camera gone).
        var result: CommandOutcome
        /// The camera stopped answering during the batch.
        var disconnected = false
    }

    let shell: any CommandContext
    let session: MediaSession
    let pattern: DestinationPattern
    let command: String
    private let ledgers: CameraLedgers

    /// `--to` as typed, else the download folder with each file under its own name.
    init(_ invocation: Invocation, shell: any CommandContext, session: MediaSession, command: String) throws {
        let text: String
        if let typed = invocation.value(of: .to)?.text {
            text = LocalDisk.expandingTilde(typed)
        } else {
            text = shell.downloadFolder(nil).replacingOccurrences(of: "%", with: "%%") + "/%f"
        }
        self.shell = shell
        self.session = session
        self.command = command
        pattern = try DestinationPattern(text)
        ledgers = try Importer.ledgers(for: session, folder: LedgerLocation.folder(environment: shell.environment))
    }

    /// `fetch` with the camera switched to download mode for it, and back to shoot mode after (a camera
    /// that does not go back is said, and the prompt then shows download mode).
    func fetchWhileShooting(_ files: [MediaFile], summarize: Bool = true) throws -> Outcome {
        try session.camera.setWorkMode(.download)
        defer {
            do {
                try session.camera.setWorkMode(.shoot)
                shell.cameraMode = .shoot
            } catch {
                shell.cameraMode = .download
                shell.report("\(command): the camera stayed in download mode: \(Interpreter.message(for: error))", severity: .warning)
            }
        }
        return try fetch(files, summarize: summarize)
    }

    /// Downloads `files` (with the sidecars the catalog groups with them), saying each one as it arrives;
    /// with `summarize`, the batch's summary line too (else only when Ctrl-C or a lost camera ended it).
    func fetch(_ files: [MediaFile], summarize: Bool = true) throws -> Outcome {
        let runs = try ledgers.beginRun()
        defer { for run in runs { run.end() } }
        var options = ImportOptions(pattern: pattern)
        options.cameraModel = session.camera.summary.model
        let plan = Importer.plan(
            CardSelection.groups(for: files, in: session.catalog), session: session, options: options, ledgers: ledgers,
            datesFromDownload: true)
        let batch = ImportBatch(shell: shell, session: session, verbose: true, deleteAfter: false, command: command)
        var runOptions = ImportRun.Options()
        if let limit = shell.state.settings.rateLimit { runOptions.chunkSize = TransferPacer.chunkSize(forLimit: limit) }
        var fetched: [String] = []
        let summary = try ImportRun(session: session, plan: plan, ledgers: ledgers, options: runOptions).run(
            cancellation: batch.cancellation, progress: { batch.progress($0) },
            event: { event in
                if case .fetched(let item, _, _) = event { fetched.append(item.destination) }
                batch.event(event)
            },
            stopAfter: { batch.shouldStop(after: $0) })
        let result: CommandOutcome
        if summarize || summary.interrupted || batch.cameraWentAway {
            result = batch.finish(summary)
        } else {
            result = summary.failed > 0 ? .failed : .success
        }
        return Outcome(fetched: fetched, summary: summary, result: result, disconnected: batch.cameraWentAway)
    }
}
