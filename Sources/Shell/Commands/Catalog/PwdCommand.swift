import CommandKit
import MediaManager
import TerminalKit
import Words

/// pwd: the current folder on the camera.
struct PwdCommand: ShellCommand {
    let spec = CommandSpec(
        "pwd", area: .catalog, summary: "print the camera folder",
        details: "Prints the current folder on the camera.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        _ = try shell.requireCamera()
        shell.output.line(RemotePath.display(shell.state.folder))
        return .success
    }
}
