import CommandKit
import MediaManager
import POSIX
import TerminalKit
import Transfers

/// kill %N: stops a job at its next chunk; the file in progress keeps its `.part`.
struct KillCommand: ShellCommand {
    let spec = CommandSpec(
        "kill", area: .transfer, arguments: [ArgumentSpec("%N", .text, .one)],
        summary: "stop a background transfer",
        details: """
            Stops job N between two requests to the camera. The file it was fetching keeps its NAME.part: \
            the same fetch or import again continues it, and files already home are not fetched twice.
            """,
        examples: ["kill %1"])

    func run(_ invocation: Invocation, in shell: any JobContext) throws -> CommandOutcome {
        let text = invocation.arguments[0].text
        guard let job = shell.jobs.job(text), job.isRunning else { throw JobWords.noSuchJob(text) }
        job.cancellation.cancel()
        // It stops at its next chunk (well under a second: chunks are sized so), then says so.
        _ = job.waitForEnd(upTo: 30)
        shell.sayEndedJobs()
        return .success
    }
}
