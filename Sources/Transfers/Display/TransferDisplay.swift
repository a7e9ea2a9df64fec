import Foundation
import MediaManager
import TerminalKit

/// The progress line of a fetch (redrawn on a terminal, nothing in batch mode), and its pace: the rate over
/// a window of real time and the rate limit across the whole batch (`TransferPacer`, its wait ended by
/// Ctrl-C). While the limit holds the transfer back, the line is redrawn so that its rate and time left
/// follow the clock.
public final class TransferDisplay {
    private let output: ShellOutput
    public let pacer: TransferPacer
    private var meter: ProgressMeter?
    private var name: String?
    /// False when a batch draws its own line (files and bytes of the whole batch): only the rate limit.
    public var showsMeter = true

    public init(output: ShellOutput, pacer: TransferPacer) {
        self.output = output
        self.pacer = pacer
        pacer.redraw = { [weak self] in
            guard let self else { return }
            self.meter?.refresh(at: self.pacer.now)
        }
    }

    /// Called after every chunk of a download: the line, then the wait the limit asks for.
    public func update(_ progress: TransferProgress) {
        pacer.update(progress)
        if progress.name != name {
            clearLine()
            name = progress.name
            if showsMeter, let write = output.progress {
                // Two cells spare for the ^C the terminal echoes when the user interrupts.
                let width = max(20, (output.terminalColumns ?? 80) - 2)
                meter = ProgressMeter(
                    name: progress.name, total: progress.totalBytes, isTerminal: true, width: { width }, write: write)
            }
        }
        meter?.update(done: progress.bytesDone, at: pacer.now)
        // Under the rate limit: waits until the bytes so far are due, or Ctrl-C.
        pacer.pace()
    }

    /// Clears the progress line before a result is printed. Results of a batch arrive in groups (whole
    /// files are renamed after one sync), so the line may belong to a later file: it is then redrawn by
    /// that file's next update, below the results.
    public func finish(_ result: MediaSession.FileResult) {
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
