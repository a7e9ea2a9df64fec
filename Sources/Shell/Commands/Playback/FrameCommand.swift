import CommandKit
import Playback
import TerminalKit

/// frame N: goes to frame N (counted from 0, as `step` and `status` count), the same as `seek --frame N`.
struct FrameCommand: ShellCommand {
    let spec = CommandSpec(
        "frame", area: .playback, arguments: [ArgumentSpec("N", .integer)],
        summary: "go to frame N",
        details: """
            Goes to frame N of the loaded video, decoded from the keyframe before it, and says its time and \
            that keyframe; frames count from 0, as 'step' and 'status' count them ('seek --frame N' does the \
            same). An N past the last frame goes to the last. A stopped video is paused there.
            """,
        examples: ["frame 0", "frame 250"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        guard let frame = invocation.integer(at: 0) else { throw CommandError("no frame to go to") }
        shell.output.note(shell.symbols(try shell.playback.seek(.frame(frame)).description))
        return .success
    }
}
