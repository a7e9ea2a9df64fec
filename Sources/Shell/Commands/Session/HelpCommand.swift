import CommandKit
import TerminalKit

/// help [CMD]: the command list, or one command's usage, options, lists and examples, wrapped to the
/// terminal's width (or `$COLUMNS` off a terminal, else 80).
struct HelpCommand: ShellCommand {
    let spec = CommandSpec(
        "help", aliases: ["?"], area: .session, arguments: [ArgumentSpec("CMD", .commandName, .optional)],
        summary: "list the commands, or explain one",
        details: "With no argument, lists every command. With CMD, shows its usage, options, examples and what "
            + "it does. Lines wrap to the terminal's width ($COLUMNS when output is not a terminal). Text "
            + "taller than the terminal goes through $PAGER (else less -FRX) at a prompt, never in a script. "
            + "'man mediashell' has it all on one page once scripts/install has installed it.",
        examples: ["help", "help fetch", "help set"])

    func run(_ invocation: Invocation, in shell: any HelpContext) throws -> CommandOutcome {
        let width = shell.textWidth
        if let name = invocation.arguments.first {
            shell.page(try shell.table.help(forName: name.text, width: width))
        } else {
            shell.page(shell.table.helpOverview(width: width))
        }
        return .success
    }
}

extension CommandContext {
    /// Writes `text` (and a newline); at an interactive prompt, text taller than the terminal goes through
    /// the pager (`$PAGER`, else `less -FRX`; see `Pager`). Never in a script or into a pipe.
    func page(_ text: String) {
        let lines = text.reduce(into: 1) { count, character in if character == "\n" { count += 1 } }
        guard isInteractive, let rows = output.terminalRows, lines >= rows, let command = Pager.command(environment: environment)
        else { return output.line(text) }
        output.flush()
        if !Pager.show(text + "\n", command: command) {
            report("the pager '\(command)' could not be run ($PAGER)", severity: .warning)
            output.line(text)
        }
        interrupt.clear()
    }
}

extension CommandContext {
    /// The width text is wrapped to: the terminal's, else `$COLUMNS` (as `ls` reads it), else 80.
    var textWidth: Int {
        if let columns = output.terminalColumns { return columns }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return 80
    }
}
