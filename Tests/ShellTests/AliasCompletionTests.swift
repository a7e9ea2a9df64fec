import CommandKit
import Foundation
import TestSupport
import Testing

@testable import Shell

/// Aliases are offered by Tab beside the command names and complete their arguments as the aliased command
/// does; the interactive `!` opens `$SHELL` on the
/// shell's own terminal and comes back to the prompt.
@Suite(.tags(.process), .notInFastRun) struct AliasCompletionTests {
    @Test func tabCompletesAnAlias() throws {
        let (interpreter, output, _) = makeInterpreter()
        #expect(interpreter.run(line: "alias today 'pwd'; alias tomorrow 'pwd'") == .success, "\(output.errors)")
        let engine = CompletionEngine(table: interpreter.table)
        #expect(engine.complete(marked: "toda|", in: interpreter.completion).line == "today |")
        #expect(engine.complete(marked: "to|", in: interpreter.completion).candidates == ["today", "tomorrow"])
        #expect(engine.complete(marked: "hel|", in: interpreter.completion).line == "help |")
    }

    @Test func tabAfterAnAliasCompletesAsTheAliasedCommand() throws {
        let (interpreter, output, _) = makeInterpreter()
        #expect(interpreter.run(line: "open sim:") == .success, "\(output.errors)")
        #expect(interpreter.run(line: "alias grab 'fetch -o /tmp'") == .success, "\(output.errors)")
        #expect(interpreter.run(line: "alias gr grab") == .success, "\(output.errors)")
        #expect(interpreter.run(line: "alias into 'cd $1'") == .success, "\(output.errors)")
        interpreter.completion.prepare()
        let engine = CompletionEngine(table: interpreter.table)
        let plain = engine.complete(marked: "fetch DCIM/100MEDIA/|", in: interpreter.completion).candidates
        #expect(!plain.isEmpty)
        #expect(engine.complete(marked: "grab DCIM/100MEDIA/|", in: interpreter.completion).candidates == plain)
        #expect(engine.complete(marked: "gr DCIM/100MEDIA/|", in: interpreter.completion).candidates == plain, "an alias of an alias")
        #expect(engine.complete(marked: "grab --for|", in: interpreter.completion).line == "grab --force |", "fetch's options")
        #expect(engine.complete(marked: "into DCI|", in: interpreter.completion).line == "into DCIM/|", "cd's folders")
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
