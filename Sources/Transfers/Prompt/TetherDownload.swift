import CommandKit
import Foundation
import Import
import MediaManager
import POSIX
import TerminalKit
import Words

/// Brings home the files a shot produced (`capture --fetch`, `watch --fetch`) the way `import` does: through
/// the destination pattern (`--to`, else the download folder), each file's `.part`, the clash policy, the
/// capture time as the file's time, and the camera's import ledger, so a file imported before (by `import`
/// or an earlier `watch`) is not fetched twice.
public struct TetherDownload {
    /// What one call brought: the local paths of the files downloaded now, in order.
    public struct Outcome {
        public var fetched: [String] = []
        public var summary: BatchSummary
        /// How the batch ended, as `import` says it (a failure, Ctrl-C, the camera gone).
        public var result: CommandOutcome
        /// The camera stopped answering during the batch.
        public var disconnected = false
    }

    let host: any BatchHost
    let session: MediaSession
    public let pattern: DestinationPattern
    let command: String
    private let ledgers: CameraLedgers

    /// `to`: the destination pattern as typed (`--to`), else the download folder with each file under its
    /// own name; `ledgerFolder`: where the cameras' import ledgers are kept.
    public init(
        to typed: String?, downloadFolder: String, ledgerFolder: String, host: any BatchHost, session: MediaSession,
        command: String
    ) throws {
        let text: String
        if let typed {
            text = LocalDisk.expandingTilde(typed)
        } else {
            text = downloadFolder.replacingOccurrences(of: "%", with: "%%") + "/%f"
        }
        self.host = host
        self.session = session
        self.command = command
        pattern = try DestinationPattern(text)
        ledgers = try Importer.ledgers(for: session, folder: ledgerFolder)
    }

    /// `fetch` with the camera switched to download mode for it, and back to shoot mode after (a camera
    /// that does not go back is said, and the prompt then shows download mode).
    public func fetchWhileShooting(_ files: [MediaFile], summarize: Bool = true) throws -> Outcome {
        try session.camera.setWorkMode(.download)
        defer {
            do {
                try session.camera.setWorkMode(.shoot)
                host.cameraMode = .shoot
            } catch {
                host.cameraMode = .download
                host.report("\(command): the camera stayed in download mode: \(ErrorWords.sentence(for: error))", severity: .warning)
            }
        }
        return try fetch(files, summarize: summarize)
    }

    /// Downloads `files` (with the sidecars the catalog groups with them), saying each one as it arrives;
    /// with `summarize`, the batch's summary line too (else only when Ctrl-C or a lost camera ended it).
    public func fetch(_ files: [MediaFile], summarize: Bool = true) throws -> Outcome {
        let runs = try ledgers.beginRun()
        defer { for run in runs { run.end() } }
        var options = ImportOptions(pattern: pattern)
        options.cameraModel = session.camera.summary.model
        let plan = Importer.plan(
            CardSelection.groups(for: files, in: session.catalog), session: session, options: options, ledgers: ledgers,
            datesFromDownload: true)
        let batch = ImportBatch(host: host, session: session, verbose: true, deleteAfter: false, command: command)
        var runOptions = ImportRun.Options()
        if let limit = host.rateLimit { runOptions.chunkSize = TransferPacer.chunkSize(forLimit: limit) }
        var fetched: [String] = []
        let summary = try ImportRun(session: session, plan: plan, ledgers: ledgers, options: runOptions).run(
            cancellation: batch.cancellation, progress: { batch.progress($0) },
            event: { event in
                if case .fetched(let item, _, _, _) = event { fetched.append(item.destination) }
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
