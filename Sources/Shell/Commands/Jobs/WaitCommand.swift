import CommandKit
import TerminalKit
import Transfers

/// wait [%N]: waits for a job (or every job) to end; fails when one failed or was killed.
struct WaitCommand: ShellCommand {
    let spec = CommandSpec(
        "wait", area: .transfer, arguments: [ArgumentSpec("%N", .text, .optional)],
        summary: "wait for background transfers to end",
        details: """
            Waits for job N, or for every job, to end, and says how each ended. Fails (a script's status 1) \
            when one of them failed or was killed. Ctrl-C stops the wait; the jobs go on.
            """,
        examples: ["wait", "wait %1"])

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        let chosen: [Job]
        if let word = invocation.arguments.first {
            guard let job = shell.jobs.job(word.text) else { throw JobWords.noSuchJob(word.text) }
            chosen = [job]
        } else {
            chosen = shell.jobs.jobs
        }
        guard let succeeded = shell.waitForJobs(chosen) else {
            shell.report("wait: interrupted; the jobs go on ('jobs' lists them)", severity: .notice)
            return .interrupted
        }
        return succeeded ? .success : .failed
    }
}
