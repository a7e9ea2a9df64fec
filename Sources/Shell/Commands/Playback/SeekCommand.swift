import CommandKit
import Playback
import TerminalKit

/// seek POS: jumps to the keyframe at or before POS (already parsed by the spec as a `SeekPosition`).
struct SeekCommand: ShellCommand {
    let spec = CommandSpec(
        "seek", area: .playback, arguments: [ArgumentSpec("POS", .seekPosition)],
        summary: "jump to a position in the video",
        details: """
            POS is seconds (12.5), m:ss(.f) (1:02.5), relative +N or -N seconds, or N% of the length. The seek \
            lands on the keyframe at or before POS and says which; a POS before the start or past the end is \
            clamped. A stopped video is paused there.
            """,
        examples: ["seek 12.5", "seek 1:02", "seek +10", "seek 50%"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        guard let position = invocation.seekPosition(at: 0) else { throw CommandError("no position to seek to") }
        shell.output.note(shell.symbols(try shell.playback.seek(SeekTarget(position)).description))
        return .success
    }
}

extension SeekTarget {
    /// The shell's parsed `seek POS` as the engine takes it.
    init(_ position: SeekPosition) {
        switch position {
        case .absolute(let seconds): self = .absolute(seconds: seconds)
        case .relative(let seconds): self = .relative(seconds: seconds)
        case .percent(let share): self = .percent(share)
        }
    }
}
