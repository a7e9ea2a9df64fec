import Playback
import TerminalKit

/// stop: stops playback and goes back to the start; the video stays loaded.
struct StopCommand: ShellCommand {
    let spec = CommandSpec(
        "stop", area: .playback, summary: "stop playback",
        details: "Stops playback and goes back to the start; closes the player. The video stays loaded.")

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        let status = try shell.playback.stop()
        shell.output.line("stopped \(shell.displayName(status)); 'play' starts it again")
        return .success
    }
}
