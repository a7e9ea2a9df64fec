import CommandKit
import Playback
import TerminalKit

/// pause: pauses playback where it is and says at which frame.
struct PauseCommand: ShellCommand {
    let spec = CommandSpec("pause", area: .playback, summary: "pause playback", details: "Pauses playback where it is.")

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let status = try shell.playback.pause()
        shell.output.note(
            "paused \(shell.displayName(status)) at \(TimeText.format(status.position)) "
                + "(frame \(status.frameIndex) of \(status.frameCount))")
        return .success
    }
}
