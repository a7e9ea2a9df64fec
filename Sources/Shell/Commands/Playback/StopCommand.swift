import CommandKit
import MediaManager
import Playback
import TerminalKit

/// stop: stops playback, closes the player and unloads the video, so the prompt no longer shows it; the file
/// stays selected, so a bare `play` starts it again.
struct StopCommand: ShellCommand {
    let spec = CommandSpec(
        "stop", area: .playback, summary: "stop playback and unload the video",
        details: """
            Stops playback, closes the player and unloads the video: the prompt no longer shows it. The file \
            stays selected, so 'play' starts it again from the start ('select --clear' forgets it).
            """,
        examples: ["stop", "stop; select --clear"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let status = try shell.playback.stop()
        let name = shell.displayName(status)
        let selected = shell.loadedVideo.map { shell.state.selection?.file.path == $0.path } ?? false
        shell.stopPlayback()
        shell.output.note("stopped \(name); " + (selected ? "'play'" : "'play \(name)'") + " starts it again")
        return .success
    }
}
