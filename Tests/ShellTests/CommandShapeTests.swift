import CommandKit
import Testing

@testable import Shell
@testable import TerminalKit

/// A command is one type in one list: adding one to the list is all that `help`, parsing, Tab completion and
/// the interpreter need.
@Suite struct CommandShapeTests {
    /// A command as the doc comment at `ShellCommand` shows it.
    struct HelloCommand: ShellCommand {
        let spec = CommandSpec(
            "hello", aliases: ["hi"], area: .session,
            options: [OptionSpec("loud", long: "loud", "shout it")],
            arguments: [ArgumentSpec("NAME", .text, .optional)],
            summary: "say hello", details: "Prints a greeting to NAME, or to the world.")

        func run(_ invocation: Invocation, in shell: any CommandContext) throws -> CommandOutcome {
            let name = invocation.arguments.first?.text ?? "world"
            if name == "nobody" { throw CommandError("nobody to greet") }
            if name == "some" {
                shell.report("hello: one of them did not answer")
                return .failed
            }
            let greeting = "hello " + SafeText.display(name)
            shell.output.line(invocation.has("loud") ? greeting.uppercased() : greeting)
            return .success
        }
    }

    let table = CommandTable(CommandTable.standardCommands + [HelloCommand()])

    private func interpreter() -> (Interpreter, CapturedOutput) {
        let output = CapturedOutput()
        return (Interpreter(output: output, interrupt: ScriptedInterrupt(), table: table), output)
    }

    @Test func anAddedCommandRunsWithItsOptionsAndAlias() {
        let (shell, output) = interpreter()
        #expect(shell.run(line: "hello; hi --loud you") == .success)
        #expect(output.standardOutput == "hello world\nHELLO YOU\n")
    }

    @Test func itsFailuresAreReportedLikeEveryOther() {
        let (shell, output) = interpreter()
        #expect(shell.run(line: "hello nobody") == .failure)
        #expect(shell.run(line: "hello some") == .failure)
        #expect(shell.run(line: "hello --quiet") == .failure)
        #expect(shell.run(line: "-hello nobody; hello x") == .success)
        #expect(output.errors == [
            "error: hello: nobody to greet", "error: hello: one of them did not answer",
            "error: hello: unknown option --quiet", "error: hello: nobody to greet",
        ])
    }

    @Test func helpAndCompletionKnowIt() throws {
        #expect(table.helpOverview().contains("  hello [--loud] [NAME] (hi)"))
        #expect(try table.help(forName: "hi").hasPrefix("usage: hello [--loud] [NAME]\naliases: hi\n"))
        let engine = CompletionEngine(table: table)
        let catalog = FakeCatalog([:])
        #expect(engine.complete(marked: "hel|", in: catalog).candidates == ["hello", "help"])
        #expect(engine.complete(marked: "hello --l|", in: catalog).line == "hello --loud |")
    }

    @Test func theStandardListHasOneTypePerCommand() {
        let standard = CommandTable.standard
        #expect(standard.commands.count == CommandTable.standardCommands.count)
        for spec in standard.commands { #expect(standard.implementation(of: spec.id)?.spec == spec, "\(spec.name)") }
    }
}
