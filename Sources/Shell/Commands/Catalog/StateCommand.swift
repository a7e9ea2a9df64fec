import CommandKit
import MediaManager
import TerminalKit
import Words

/// state: whether the file list is being read, up to date, or out of date.
struct StateCommand: ShellCommand {
    let spec = CommandSpec(
        "state", area: .catalog, summary: "show the file list's state",
        details: "Shows whether the file list is being read, up to date, or out of date.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let session = try shell.requireCamera()
        shell.output.note(CatalogDescription.line(for: session.catalog.status))
        return .success
    }
}
