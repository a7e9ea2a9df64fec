import CommandKit
import TerminalKit

/// help [CMD]: the command list, or one command's usage, options, lists and examples, wrapped to the
/// terminal's width (or `$COLUMNS` off a terminal, else 80).
struct HelpCommand: ShellCommand {
    let spec = CommandSpec(
        "help", aliases: ["?"], area: .session, arguments: [ArgumentSpec("CMD", .commandName, .optional)],
        summary: "list the commands, or explain one",
        details: "With no argument, lists every command. With CMD, shows its usage, options, examples and what "
            + "it does. Lines wrap to the terminal's width ($COLUMNS when output is not a terminal). "
            + "'man mediashell' has it all on one page once scripts/install has installed it.",
        examples: ["help", "help fetch", "help set"])

    func run(_ invocation: Invocation, in shell: Interpreter) throws -> CommandOutcome {
        let width = shell.textWidth
        if let name = invocation.arguments.first {
            shell.output.line(try shell.table.help(forName: name.text, width: width))
        } else {
            shell.output.line(shell.table.helpOverview(width: width))
        }
        return .success
    }
}

extension Interpreter {
    /// The width text is wrapped to: the terminal's, else `$COLUMNS` (as `ls` reads it), else 80.
    var textWidth: Int {
        if let columns = output.terminalColumns { return columns }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return 80
    }
}
