import CommandKit
import Playback
import TerminalKit

/// seek [--key|--frame] POS: jumps to the frame shown at POS (already parsed by the spec as a `SeekPosition`),
/// to the keyframe before it with --key, or to frame POS with --frame.
struct SeekCommand: ShellCommand {
    let spec = CommandSpec(
        "seek", area: .playback,
        options: [
            OptionSpec(.key, long: "key", "land on the keyframe at or before POS"),
            OptionSpec(.frame, long: "frame", "POS is a frame number (0 is the first frame), as in 'frame N'"),
        ],
        arguments: [ArgumentSpec("POS", .seekPosition)],
        summary: "jump to a position in the video",
        details: """
            POS is seconds (12.5), m:ss(.f) (1:02.5), relative +N or -N seconds from where it is, or N% of the \
            length. The seek lands on the frame shown at POS (the last one whose time is at or before it), \
            decoded from the keyframe before it, and says which frame and which keyframe; with --key it lands \
            on that keyframe instead (quicker on a slow camera); with --frame, POS is a frame number, counted \
            from 0 as 'step' and 'status' count. A POS before the start or past the end is clamped. A stopped \
            video is paused there.
            """,
        examples: ["seek 12.5", "seek 1:02", "seek +10", "seek 50%", "seek --key 30", "seek --frame 250"])

    func run(_ invocation: Invocation, in shell: any PlaybackContext) throws -> CommandOutcome {
        guard let position = invocation.seekPosition(at: 0) else { throw CommandError("no position to seek to") }
        let outcome: SeekOutcome
        if invocation.has(.frame) {
            guard !invocation.has(.key) else { throw CommandError("--key and --frame do not go together") }
            let word = invocation.arguments[0].text
            guard case .absolute(let seconds) = position, let frame = Int(exactly: seconds), word.allSatisfy(\.isNumber)
            else { throw CommandError("--frame takes a frame number (0 is the first frame), not '\(SafeText.display(word))'") }
            outcome = try shell.playback.seek(.frame(frame))
        } else {
            outcome = try shell.playback.seek(SeekTarget(position), landing: invocation.has(.key) ? .keyframe : .frame)
        }
        shell.output.note(shell.symbols(outcome.description))
        return .success
    }
}

extension OptionName {
    static let key: OptionName = "key"
    static let frame: OptionName = "frame"
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
