import CommandKit
import Testing

@testable import Shell

/// Each command's `run` gets the narrowest context its work needs; the interpreter is every one of them,
/// and only the session's own commands get the interpreter itself.
@Suite struct CommandContextTests {
    @Test func everyCommandGetsTheContextItAsksFor() {
        let shell = Interpreter(output: CapturedOutput(), interrupt: ScriptedInterrupt())
        for command in CommandTable.standardCommands {
            let accepted = Self.accepts(command, shell)
            #expect(accepted, "\(command.spec.name) asks for a context the interpreter is not")
        }
    }

    @Test func onlyTheSessionsOwnCommandsGetTheInterpreter() {
        let whole = CommandTable.standardCommands.filter { Self.getsTheInterpreter($0) }.map(\.spec.name)
        #expect(Set(whole) == [
            "help", "quit", "open", "close", "history", "source", "set", "watch", "!", "lcd", "lls", "alias", "unalias",
        ])
    }

    private static func accepts<Command: ShellCommand>(_ command: Command, _ shell: Interpreter) -> Bool {
        shell is Command.Context
    }

    private static func getsTheInterpreter<Command: ShellCommand>(_ command: Command) -> Bool {
        Command.Context.self == Interpreter.self
    }
}
