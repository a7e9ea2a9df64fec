import Foundation
import TestSupport
import Testing

@testable import Shell

/// Aliases are offered by Tab beside the command names, and the interactive `!` opens `$SHELL` on the
/// shell's own terminal and comes back to the prompt.
@Suite struct AliasCompletionTests {
    @Test func tabCompletesAnAlias() throws {
        let (interpreter, output, _) = makeInterpreter()
        #expect(interpreter.run(line: "alias today 'pwd'; alias tomorrow 'pwd'") == .success, "\(output.errors)")
        let engine = CompletionEngine(table: interpreter.table)
        #expect(engine.complete(marked: "toda|", in: interpreter.completion).line == "today |")
        #expect(engine.complete(marked: "to|", in: interpreter.completion).candidates == ["today", "tomorrow"])
        #expect(engine.complete(marked: "hel|", in: interpreter.completion).line == "help |")
    }

    @Test(.enabled(if: ShellBinary.exists && FileManager.default.isExecutableFile(atPath: Expect.path)))
    func bangAloneOpensTheShellAndComesBack() throws {
        let home = try TemporaryFolder("msh-bang")
        let result = try Expect.run(
            """
            spawn -noecho env TERM=xterm LANG=C.UTF-8 HOME=\(home.path) XDG_STATE_HOME=\(home.path)/state SHELL=/bin/sh PS1=inner\\$\\  {\(ShellBinary.path)} -n --camera sim:
            must {sim:/> $} 2
            send "!\\r"
            must {inner\\$ $} 3
            send "echo from-inside-\\$((20+22))\\r"
            must {from-inside-42} 4
            send "exit\\r"
            must {sim:/> $} 5
            send "!echo hi; echo there\\r"
            must {hi\\r\\nthere\\r\\n} 6
            must {sim:/> $} 7
            send "\\004"
            expect eof
            exit 0
            """)
        #expect(result.status == 0, "expect failed: \(result.standardOutput)")
    }
}
