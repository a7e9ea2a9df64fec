import CommandKit
import TerminalKit

/// edit: enters edit mode, where `delete` needs no --force (the prompt shows it).
struct EditCommand: ShellCommand {
    let spec = CommandSpec(
        "edit", area: .edit, summary: "enter edit mode",
        details: "In edit mode `delete` removes files without --force; the prompt shows the mode.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        if shell.state.enterEditMode() {
            shell.output.note("edit mode: 'delete NAME' removes files from the camera; 'done' leaves")
        } else {
            shell.output.note("already in edit mode")
        }
        return .success
    }
}
