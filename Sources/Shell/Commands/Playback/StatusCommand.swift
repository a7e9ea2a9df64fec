import CommandKit
import MediaFormats
import MediaManager
import Playback
import TerminalKit
import Words

/// status [--json]: one line, or the stable JSON (sorted keys) of `PlaybackStatus`; `{"state":"unloaded"}`
/// when no video is loaded.
struct StatusCommand: ShellCommand {
    let spec = CommandSpec(
        "status", area: .playback, options: [.json], summary: "show the playback state",
        details: """
            Shows the loaded video, its state, position and length, the frame shown (counted from 0), its \
            time and the keyframe it is decoded from, rate, size, orientation, where the last seek landed and \
            the player's own position; for a drone clip with an .SRT, the telemetry of that moment (place, \
            heights, exposure). --json prints it as one JSON \
            object with sorted keys ({"state":"unloaded"} when no video is loaded).
            """)

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        let json = invocation.has(.json)
        guard var status = shell.playback.status() else {
            shell.output.line(json ? #"{"state":"unloaded"}"# : "no video loaded ('play NAME' starts one)")
            return .success
        }
        status.telemetry = Self.telemetry(at: status.position, shell)
        if json {
            shell.output.line(status.json())
        } else {
            shell.output.note(shell.symbols(SafeText.display(status.line), state: status.state))
            if let line = status.telemetry.flatMap(FlightWords.telemetryLine) { shell.output.note(line) }
        }
        return .success
    }

    /// The loaded drone clip's `.SRT` cue at `position` (nil without one). Reading it is never what fails
    /// `status`: an unreadable `.SRT` gives none.
    static func telemetry(at position: Double, _ shell: any PlaybackContext) -> TelemetryCue? {
        guard let session = shell.media, let video = shell.loadedVideo,
            let track = try? shell.interruptibly(session, { try session.telemetry(for: video) })
        else { return nil }
        return track.cue(at: position)
    }
}
