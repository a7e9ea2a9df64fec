import CommandKit
import TerminalKit

/// echo [-n] [TEXT...]: prints its words, for scripts to say how far they got.
struct EchoCommand: ShellCommand {
    let spec = CommandSpec(
        "echo", area: .local, arguments: [ArgumentSpec("TEXT", .text, .zeroOrMore)],
        summary: "print a line of text",
        details: "Prints the words given, separated by one space, and a newline (none with -n first), "
            + "as a POSIX shell's echo does; quote the text to keep its spacing. Scripts use it to report progress.",
        examples: ["echo importing the morning's card", "echo -n 'done: '; pwd"], passesOptions: true)

    func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
        var words = invocation.arguments.map(\.text)
        let newline = words.first != "-n"
        if !newline { words.removeFirst() }
        let text = SafeText.display(words.joined(separator: " "))
        if newline { shell.output.line(text) } else { shell.output.write(text) }
        return .success
    }
}
