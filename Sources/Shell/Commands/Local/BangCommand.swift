import CommandKit
import Foundation
import TerminalKit

/// !CMD: runs CMD in this computer's shell (`/bin/sh -c`), or `$SHELL` when there is no CMD, as sftp's `!`.
/// A line that starts with `!` is handed over whole, `;` and quotes included (`Interpreter.run(line:)`).
struct BangCommand: ShellCommand {
    let spec = CommandSpec(
        "!", area: .local, arguments: [ArgumentSpec("CMD", .text, .zeroOrMore)],
        summary: "run CMD in the local shell; ! alone opens $SHELL",
        details: "A line that starts with ! is run by /bin/sh -c, the rest of the line whole (its ';', quotes "
            + "and wildcards are the local shell's). ! alone starts an interactive $SHELL; leaving it comes "
            + "back here. A status other than 0 is a failure, which stops a script.",
        examples: ["!df -h .", "!ls ~/Pictures | wc -l", "!"], passesOptions: true)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        let words = invocation.arguments.map(\.text)
        try shell.runLocal(words.isEmpty ? nil : words.joined(separator: " "))
        return .success
    }
}

extension CommandContext {
    /// Runs a local shell command (nil: `$SHELL`); a status other than 0 is thrown as a failure.
    func runLocal(_ command: String?) throws {
        let status = try LocalShell.run(command, output: output)
        interrupt.clear()
        if status != 0 { throw LocalCommandFailed(status: status) }
    }
}
