import CommandKit
import Foundation
import Import
import TerminalKit
import Transfers

/// fg [%N]: shows a job's progress line until it ends; Ctrl-C leaves it running in the background.
struct FgCommand: ShellCommand {
    let spec = CommandSpec(
        "fg", area: .transfer, arguments: [ArgumentSpec("%N", .text, .optional)],
        summary: "watch a background transfer's progress",
        details: """
            Shows the progress line of job N (or of the latest job) until it ends. Ctrl-C detaches: the job \
            goes on in the background ('kill %N' stops it). In a script, waits for the job.
            """,
        examples: ["fg", "fg %2"])

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        let text = invocation.arguments.first?.text
        guard let job = shell.jobs.job(text) ?? (text == nil ? shell.jobs.running.last : nil) else {
            throw JobWords.noSuchJob(text ?? "")
        }
        let line = BatchProgressLine(output: shell.output)
        while job.waitForEnd(upTo: 0.1) == nil {
            if shell.interrupt.isPending {
                line.clear()
                shell.output.note("[\(job.number)] running in the background  \(job.commandLine)")
                return .success
            }
            let p = job.progress
            line.update(
                BatchProgress(
                    filesDone: p.filesDone, filesTotal: p.filesTotal, bytesDone: p.bytesDone, bytesTotal: p.bytesTotal,
                    bytesPerSecond: p.bytesPerSecond, elapsed: 0, current: p.current),
                at: ProcessInfo.processInfo.systemUptime)
        }
        line.clear()
        let ended = shell.sayEndedJobs()
        return ended.allSatisfy { $0.state == .done } ? .success : .failed
    }
}
