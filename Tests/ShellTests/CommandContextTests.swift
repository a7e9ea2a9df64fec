import CommandKit
import Testing

@testable import Shell

/// Each command's `run` gets the narrowest context its work needs; the interpreter is every one of them,
/// and no command gets the interpreter itself.
@Suite struct CommandContextTests {
    @Test func everyCommandGetsTheContextItAsksFor() {
        let shell = Interpreter(output: CapturedOutput(), interrupt: ScriptedInterrupt())
        for command in CommandTable.standardCommands {
            let accepted = Self.accepts(command, shell)
            #expect(accepted, "\(command.spec.name) asks for a context the interpreter is not")
        }
    }

    @Test func noCommandGetsTheInterpreter() {
        let whole = CommandTable.standardCommands.filter { Self.getsTheInterpreter($0) }.map(\.spec.name)
        #expect(whole == [])
    }

    @Test func theSessionsOwnCommandsGetNarrowContexts() {
        let contexts = Dictionary(uniqueKeysWithValues: CommandTable.standardCommands.map { ($0.spec.name, Self.context(of: $0)) })
        for name in ["quit", "open", "close", "history", "source", "watch", "lcd"] {
            #expect(contexts[name] == (any SessionContext).self, "\(name)")
        }
        for name in ["set", "alias", "unalias"] { #expect(contexts[name] == (any ConfigContext).self, "\(name)") }
        #expect(contexts["help"] == (any HelpContext).self)
        #expect(contexts["lls"] == (any CommandContext).self && contexts["!"] == (any CommandContext).self)
    }

    private static func accepts<Command: ShellCommand>(_ command: Command, _ shell: Interpreter) -> Bool {
        shell is Command.Context
    }

    private static func context<Command: ShellCommand>(of command: Command) -> Any.Type {
        Command.Context.self
    }

    private static func getsTheInterpreter<Command: ShellCommand>(_ command: Command) -> Bool {
        Command.Context.self == Interpreter.self
    }
}
