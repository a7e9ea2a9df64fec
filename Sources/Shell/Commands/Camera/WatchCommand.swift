import CommandKit
import Failures
import Foundation
import Import
import MediaManager
import POSIX
import TerminalKit
import Transfers

extension OptionName {
    static let exec: OptionName = "exec"
    static let reconnect: OptionName = "reconnect"
}

/// watch [--fetch] [--to PATTERN] [--exec 'CMD {}'] [--reconnect] [--json]: tethered shooting. Waits for the
/// files the camera announces (shots taken on the camera itself, files copied into a card folder), says
/// each, and with --fetch brings each home as it arrives and runs the hook for it; until Ctrl-C.
struct WatchCommand: ShellCommand {
    let spec = CommandSpec(
        "watch", area: .camera,
        options: [
            OptionSpec(.fetch, long: "fetch", "download each new file as it arrives"),
            OptionSpec(.to, long: "to", value: ArgumentSpec("PATTERN", .localPath), "where they go, as for 'import' (implies --fetch)"),
            OptionSpec(.exec, long: "exec", value: ArgumentSpec("CMD", .text), "run CMD for each downloaded file, {} its path (implies --fetch)"),
            OptionSpec(.reconnect, long: "reconnect", "when the camera goes away, wait for it to come back"),
            .json,
        ],
        summary: "wait for new files on the camera (tethered shooting)",
        details: """
            Waits for the files the camera announces (shots taken with its own shutter button, or by another \
            program) and prints each, until Ctrl-C. A card folder (dir:) reports files copied into it; a \
            camera that announces nothing has its newest folders listed every 2 s (it is said once). With \
            --fetch each new file is downloaded as 'import' does: into the download folder or where PATTERN \
            says, through NAME.part, with its capture time, recorded in the camera's import ledger (a file \
            imported before is not fetched again). --exec runs CMD with /bin/sh once per downloaded file, {} \
            standing for its path, which is passed as an argument and never spliced into the command text; \
            a hook that fails is reported and watching goes on. --reconnect survives the camera going away: \
            it is opened again (waiting longer between tries, for up to 5 minutes) and what was added \
            meanwhile is found, a download cut off is finished. --json prints one object a line.
            """)

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        let hook = invocation.value(of: .exec).map { WatchHook(template: $0.text) }
        let fetching = invocation.has(.fetch) || invocation.value(of: .to) != nil || hook != nil
        let reconnects = invocation.has(.reconnect)
        let url = session.url
        var download = fetching ? try shell.tetherDownload(invocation, session: session, command: "watch") : nil
        let watch = try NewFileWatch(session)
        let report = WatchReport(host: shell.batchHost, json: invocation.has(.json))
        report.started(polling: watch.neverAnnounces)
        // A camera in shoot mode gives no files: each fetch switches it to download mode and back.
        var shooting = fetching && session.camera.isShooting
        if shooting { report.fetchesWhileShooting() }
        var saidUnannounced = false
        var failures = 0
        var pending: [MediaFile] = []
        watching: while !shell.interrupt.isPending {
            do {
                if pending.isEmpty {
                    pending = try watch.next(guarded: { try shell.interruptibly(watch.session, $0) })
                    if watch.foundUnannounced && !saidUnannounced {
                        saidUnannounced = true
                        report.unannounced()
                    }
                    for file in pending { report.new(file) }
                }
                guard let download, !pending.isEmpty else {
                    pending = []
                    continue
                }
                let outcome = try shooting
                    ? download.fetchWhileShooting(pending, summarize: false) : download.fetch(pending, summarize: false)
                if outcome.disconnected { throw CameraWentAway() }
                pending = []
                // Ctrl-C cutting a download short ends the watch as Ctrl-C between files does: the file
                // stays as .part (said), which is no failure of the watch.
                if outcome.result == .failed { failures += 1 }
                for path in outcome.fetched {
                    report.fetched(path)
                    if let hook, let failure = hook.run(for: path, output: shell.output) {
                        failures += 1
                        report.hookFailed(path, failure)
                    }
                }
                if outcome.summary.interrupted { break }
            } catch is Interrupted {
                break
            } catch let error where reconnects && Self.isCameraGone(error) {
                report.lost(error)
                guard let again = try Self.reopen(url, shell: shell) else { break watching }
                // What was added meanwhile, and what was being fetched when the camera went (the ledger
                // skips what had arrived; a cut-off file continues from its .part).
                let retry = Set(pending.map(\.path))
                pending = try watch.resume(on: again)
                for file in pending { report.new(file) }
                pending += again.catalog.allFiles().filter { retry.contains($0.path) && !pending.contains($0) }
                if fetching {
                    download = try shell.tetherDownload(invocation, session: again, command: "watch")
                    shooting = again.camera.isShooting
                }
                report.back(missed: pending.count)
            }
        }
        shell.interrupt.clear()
        report.ended()
        return .failed(if: failures)
    }

    /// A batch stopped because the camera no longer answered.
    private struct CameraWentAway: Error, CategorizedError {
        var category: FailureCategory { .disconnected }
    }

    static func isCameraGone(_ error: Error) -> Bool {
        error.failureCategory == .disconnected || error.failureCategory == .timedOut
    }

    /// Opens `url` again, trying after 1, 2, 4 ... seconds (at most 30 between tries) for up to 5 minutes;
    /// nil when Ctrl-C stopped the wait. Throws when the camera did not come back.
    static func reopen(_ url: CameraURL, shell: any SessionContext) throws -> MediaSession? {
        shell.closeCamera()
        let started = monotonicSeconds()
        var pause = 1.0
        var lastError: Error?
        while monotonicSeconds() - started < reopenLimit {
            if shell.interrupt.waitForInterrupt(upTo: pause) { return nil }
            pause = min(pause * 2, 30)
            do {
                try shell.open(url)
                if let session = shell.media { return session }
            } catch is Interrupted {
                return nil
            } catch {
                lastError = error
            }
        }
        let why = lastError.map { ": " + Interpreter.message(for: $0) } ?? ""
        throw CommandError("the camera did not come back within \(Int(reopenLimit / 60)) minutes\(why)")
    }

    static let reopenLimit: Double = 300
}
