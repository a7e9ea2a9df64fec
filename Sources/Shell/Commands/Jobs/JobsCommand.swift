import CommandKit
import TerminalKit
import Transfers

/// jobs: the transfers running in the background, each with its progress.
struct JobsCommand: ShellCommand {
    let spec = CommandSpec(
        "jobs", area: .transfer, summary: "list the background transfers",
        details: """
            Lists the jobs started with 'fetch ... &' or 'import ... &': number, state, the command, files and \
            bytes done of the whole batch, the rate and the file in progress. A job that ended is said once, \
            before the next prompt, and leaves the list then.
            """,
        examples: ["fetch *.MP4 &", "jobs"])

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        shell.sayEndedJobs()
        let width = shell.output.terminalColumns ?? 200
        for job in shell.jobs.running { shell.output.line(JobWords.listLine(job, width: width)) }
        if shell.jobs.running.isEmpty && shell.isInteractive { shell.output.note("no jobs") }
        return .success
    }
}
