import CommandKit
import Playback
import TerminalKit

/// resume: plays on from where playback paused.
struct ResumeCommand: ShellCommand {
    let spec = CommandSpec("resume", area: .playback, summary: "resume playback", details: "Resumes paused playback.")

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let status = try shell.playback.resume()
        shell.output.note("playing \(shell.displayName(status)) from \(TimeText.format(status.position))")
        return .success
    }
}
