import Foundation
import MediaManager
import TerminalKit

/// The progress line of a fetch (redrawn on a terminal, nothing in batch mode), and the rate limit
/// (MediaManager's `RateLimiter`, its wait ended by Ctrl-C).
final class TransferDisplay {
    private let output: ShellOutput
    private let limiter: RateLimiter?
    private var meter: ProgressMeter?
    private var name: String?
    private var lastDone: UInt64 = 0
    /// False when a batch draws its own line (files and bytes of the whole batch): only the rate limit.
    var showsMeter = true

    init(output: ShellOutput, rateLimit: UInt64?, interrupt: any InterruptSource) {
        self.output = output
        limiter = rateLimit.map { RateLimiter(bytesPerSecond: $0, wait: { _ = interrupt.waitForInterrupt(upTo: $0) }) }
    }

    /// Called after every chunk of a download.
    func update(_ progress: TransferProgress) {
        let now = ProcessInfo.processInfo.systemUptime
        if progress.name != name {
            clearLine()
            name = progress.name
            limiter?.restart(at: progress.bytesDone)
            if showsMeter, let write = output.progress {
                // Two cells spare for the ^C the terminal echoes when the user interrupts.
                let width = max(20, (output.terminalColumns ?? 80) - 2)
                meter = ProgressMeter(
                    name: progress.name, total: progress.totalBytes, isTerminal: true, width: { width }, write: write)
            }
        }
        lastDone = progress.bytesDone
        meter?.update(done: progress.bytesDone, at: now)
        // Under the rate limit: waits until the bytes so far are due, or Ctrl-C.
        limiter?.pace(progress.bytesDone)
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
