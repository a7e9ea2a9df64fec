import CommandKit
import MediaManager
import TerminalKit

/// close: ends the session with the camera.
struct CloseCommand: ShellCommand {
    let spec = CommandSpec(
        "close", area: .session, summary: "close the camera",
        details: """
            Ends the session with the camera; `open` starts another. Refused while the card is mounted from \
            this prompt (`mount DIR`): `umount` it first.
            """)

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        guard let media = shell.media else { throw CommandError("no camera is open") }
        try shell.refuseWhileJobsRun("close")
        try refuseWhileMounted()
        let url = media.url
        shell.closeCamera()
        shell.output.note("closed \(SafeText.display(url.description))")
        return .success
    }
}
