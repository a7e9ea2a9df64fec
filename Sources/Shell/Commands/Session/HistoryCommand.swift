import CommandKit
import TerminalKit

/// history: the lines entered at the prompt, numbered, oldest first.
struct HistoryCommand: ShellCommand {
    let spec = CommandSpec(
        "history", area: .session, summary: "show the command history",
        details: "Lists the lines entered at the prompt, oldest first; they are kept across runs.")

    func run(_ invocation: Invocation, in shell: any SessionContext) throws -> CommandOutcome {
        let entries = shell.historyProvider?() ?? []
        let width = String(entries.count).count
        for (index, entry) in entries.enumerated() {
            let number = String(index + 1)
            shell.output.line(
                String(repeating: " ", count: width - number.count) + number + "  " + SafeText.display(entry))
        }
        return .success
    }
}
