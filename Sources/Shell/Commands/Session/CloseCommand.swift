import CommandKit
import MediaManager
import TerminalKit

/// close: ends the session with the camera.
struct CloseCommand: ShellCommand {
    let spec = CommandSpec(
        "close", area: .session, summary: "close the camera",
        details: "Ends the session with the camera; `open` starts another.")

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        guard let media = shell.media else { throw CommandError("no camera is open") }
        try shell.refuseWhileJobsRun("close")
        let url = media.url
        shell.closeCamera()
        shell.output.line("closed \(SafeText.display(url.description))")
        return .success
    }
}
