import CommandKit
import TerminalKit

/// done: leaves edit mode.
struct DoneCommand: ShellCommand {
    let spec = CommandSpec(
        "done", area: .edit, summary: "leave edit mode",
        details: "Leaves edit mode.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        if !shell.state.leaveEditMode() { shell.output.note("not in edit mode") }
        return .success
    }
}
