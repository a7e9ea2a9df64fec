import CommandKit
import Playback
import TerminalKit

/// step [N]: steps N frames (one with no N; backward when negative) while paused.
struct StepCommand: ShellCommand {
    let spec = CommandSpec(
        "step", area: .playback, arguments: [ArgumentSpec("N", .integer, .optional)],
        summary: "step frames",
        details: "Steps N frames forward (backward when negative) while paused; one frame with no N.")

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let frames = invocation.integer(at: 0) ?? 1
        shell.output.note(shell.symbols(try shell.playback.step(frames).description))
        return .success
    }
}
