import CommandKit
import TerminalKit

/// clear: clears the terminal, as the shell's `clear` does; prints nothing when output is not a terminal.
struct ClearCommand: ShellCommand {
    let spec = CommandSpec(
        "clear", area: .local, summary: "clear the terminal",
        details: "Clears the terminal screen (Ctrl-L does the same while typing); nothing when output is not a terminal.")

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        // Home, erase the screen, and the scrollback (as ncurses' clear does with E3).
        if shell.output.terminalColumns != nil { shell.output.write("\u{1B}[H\u{1B}[2J\u{1B}[3J") }
        return .success
    }
}
